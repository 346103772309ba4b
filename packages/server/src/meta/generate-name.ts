/**
 * Names from `metadata.generateName` (k8s.io/apiserver/pkg/storage/names.SimpleNameGenerator): the prefix, cut to
 * leave room, plus five random characters from an alphabet without vowels (so no words form) and without
 * look-alike characters.
 */
import { randomInt } from 'node:crypto';

/** The characters a generated suffix is made of (utilrand's alphanums). */
export const generatedSuffixAlphabet = 'bcdfghjklmnpqrstvwxz2456789';

/** Length of the random suffix. */
export const generatedSuffixLength = 5;

/** Longest prefix kept: a generated name stays within 63 characters. */
const maxPrefixLength = 63 - generatedSuffixLength;

/** `prefix` (cut to 58 characters) followed by a random 5-character suffix. */
export function generateName(prefix: string): string {
  let suffix = '';
  for (let i = 0; i < generatedSuffixLength; i++) suffix += generatedSuffixAlphabet[randomInt(generatedSuffixAlphabet.length)];
  return `${prefix.length > maxPrefixLength ? prefix.slice(0, maxPrefixLength) : prefix}${suffix}`;
}
