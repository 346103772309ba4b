/**
 * Shuffle sharding (k8s.io/apiserver/pkg/util/shufflesharding): a flow's hash deals it a hand of `handSize`
 * distinct queues out of `deckSize`, so two flows rarely share all their queues and one heavy flow can only fill
 * its own hand. The hash is FNV-1a over the FlowSchema name and the distinguisher; the hand is decoded from it
 * digit by digit in a falling base, as kube's Dealer does.
 */

const fnvOffset = 0xcbf29ce484222325n;
const fnvPrime = 0x100000001b3n;
const mask64 = (1n << 64n) - 1n;

/** 64-bit FNV-1a of the parts, each followed by a separator byte. */
export function flowHash(...parts: readonly string[]): bigint {
  let h = fnvOffset;
  for (const part of parts) {
    for (const byte of Buffer.from(part, 'utf8')) h = ((h ^ BigInt(byte)) * fnvPrime) & mask64;
    h = ((h ^ 0n) * fnvPrime) & mask64;
  }
  return h;
}

/** The hand dealt for `hash`: `handSize` distinct queue indexes below `deckSize`. */
export function dealHand(hash: bigint, deckSize: number, handSize: number): number[] {
  const hand: number[] = [];
  let h = hash;
  for (let i = 0; i < Math.min(handSize, deckSize); i++) {
    const base = BigInt(deckSize - i);
    let card = Number(h % base);
    h /= base;
    // Skip the cards already dealt, in ascending order, so the hand holds distinct queues.
    for (const taken of [...hand].sort((a, b) => a - b)) if (card >= taken) card++;
    hand.push(card);
  }
  return hand;
}

/** The most hash bits a hand may use (kube's MaxHashBits: beyond it the last card's odds grow uneven). */
const maxHashBits = 60;

/**
 * Why a deck and hand size cannot be dealt from (kube's NewDealer): sizes not positive, a hand larger than the deck,
 * a deck beyond 2^26 queues, or a hand needing more than 60 bits of the hash; undefined when they can.
 */
export function dealerError(deckSize: number, handSize: number): string | undefined {
  if (!(deckSize > 0) || !(handSize > 0)) return `deckSize ${deckSize} or handSize ${handSize} is not positive`;
  if (handSize > deckSize) return `handSize ${handSize} is greater than deckSize ${deckSize}`;
  if (deckSize > 2 ** 26) return `deckSize ${deckSize} is impractically large`;
  if (Math.ceil(Math.log2(deckSize) * handSize) > maxHashBits) return `required entropy bits of deckSize ${deckSize} and handSize ${handSize} is greater than ${maxHashBits}`;
  return undefined;
}
