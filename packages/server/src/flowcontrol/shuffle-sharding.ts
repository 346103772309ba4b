/**
 * Shuffle sharding (k8s.io/apiserver/pkg/util/shufflesharding): a flow's hash deals it a hand of `handSize`
 * distinct queues out of `deckSize`, so two flows rarely share all their queues and one heavy flow can only fill
 * its own hand. The hash is FNV-1a over the FlowSchema name and the distinguisher; the hand is decoded from it
 * digit by digit in a falling base, as kube's Dealer does.
 */

const asciiOnly = /^[\x00-\x7f]*$/;

/**
 * 64-bit FNV-1a of the parts, each followed by a separator byte. Computed in four 16-bit limbs of plain numbers,
 * every request's flow being hashed: BigInt arithmetic per byte cost more than the rest of a refusal's
 * classification. FNV's prime is 2^40 + 0x1b3, so a multiplication is h × 0x1b3 plus h shifted by 40 bits.
 */
export function flowHash(...parts: readonly string[]): bigint {
  // The offset basis 0xcbf29ce484222325, lowest limb first.
  let h0 = 0x2325;
  let h1 = 0x8422;
  let h2 = 0x9ce4;
  let h3 = 0xcbf2;
  const mix = (byte: number): void => {
    h0 ^= byte;
    const t0 = h0 * 0x1b3;
    const t1 = h1 * 0x1b3 + (t0 >>> 16);
    const t2 = h2 * 0x1b3 + (t1 >>> 16) + ((h0 << 8) & 0xffff);
    const t3 = h3 * 0x1b3 + (t2 >>> 16) + ((h1 << 8) & 0xffff) + (h0 >>> 8);
    h0 = t0 & 0xffff;
    h1 = t1 & 0xffff;
    h2 = t2 & 0xffff;
    h3 = t3 & 0xffff;
  };
  for (const part of parts) {
    // Names and user names are ASCII almost always: their UTF-8 is their char codes, with no buffer to make.
    if (asciiOnly.test(part)) for (let i = 0; i < part.length; i++) mix(part.charCodeAt(i));
    else for (const byte of Buffer.from(part, 'utf8')) mix(byte);
    mix(0);
  }
  return (BigInt(h3) << 48n) | (BigInt(h2) << 32n) | (BigInt(h1) << 16n) | BigInt(h0);
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

/**
 * A dealer of one deck and hand size (kube's Dealer) that remembers the hands it dealt: a flow sends many requests,
 * and each would otherwise decode its hand again. At most `remembered` hands are kept; beyond that it starts over.
 */
export function createDealer(deckSize: number, handSize: number, remembered = 4096): (hash: bigint) => readonly number[] {
  const hands = new Map<bigint, readonly number[]>();
  return (hash) => {
    let hand = hands.get(hash);
    if (hand === undefined) {
      if (hands.size >= remembered) hands.clear();
      hands.set(hash, (hand = dealHand(hash, deckSize, handSize)));
    }
    return hand;
  };
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
