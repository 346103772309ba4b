import { test } from 'node:test';
import assert from 'node:assert/strict';
import { formatEndpoints } from './endpoints-format.js';

test('endpoints of the named ports, three at most, headless subsets by address', () => {
  const endpoints = {
    subsets: [
      { addresses: [{ ip: '10.0.0.1' }, { ip: 'fd00::1' }], ports: [{ name: 'http', port: 80 }, { name: 'https', port: 443 }] },
      { addresses: [{ ip: '10.0.0.2' }, { ip: '10.0.0.3' }], ports: [{ name: 'http', port: 80 }] },
    ],
  };
  assert.equal(formatEndpoints(endpoints, new Set(['http'])), '10.0.0.1:80,[fd00::1]:80,10.0.0.2:80 + 1 more...');
  assert.equal(formatEndpoints(endpoints, new Set(['https'])), '10.0.0.1:443,[fd00::1]:443');
  assert.equal(formatEndpoints(endpoints, new Set(['none'])), '', 'subsets without the port print nothing');
  assert.equal(formatEndpoints({ subsets: [{ addresses: [{ ip: '10.0.0.9' }] }] }, new Set([''])), '10.0.0.9');
  assert.equal(formatEndpoints(undefined, undefined), '<none>');
});
