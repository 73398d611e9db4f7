/**
 * no-secrets' value rules (validators/no-secrets/scripts/rules.ts) on their edges: when a value assigned to a secret
 * name is a secret (length, characters, entropy by length, names, paths, words), when a token is provably made up,
 * and the measures they use (entropy, character classes, leetspeak, base64).
 */
import { describe, expect, test } from 'bun:test';
import {
  ascendingRun,
  classes,
  decodedBase64,
  entropy,
  genericValueIsSecret,
  isFakeToken,
  isPlaceholderValue,
  looksTemplated,
  mask,
  unleet,
} from '../../validators/no-secrets/scripts/rules.ts';
import { randomText } from './no-secrets-samples.ts';

const r = randomText(31337);
/** `distinct` characters each `times` times, interleaved: an entropy of exactly log2(distinct) bits. */
const spread = (chars: string, times: number) => Array.from({ length: times }, () => chars).join('');

describe('the measures', () => {
  test('entropy, classes, leetspeak, masks', () => {
    expect(entropy('')).toBe(0);
    expect(entropy('aabb')).toBe(1);
    expect(entropy('Q7mx')).toBe(2);
    expect(classes('aA1!')).toBe(4);
    expect(classes('a_.-')).toBe(1);
    expect(unleet('01345 7@$X')).toBe('oieas tasx');
    expect(mask('ghp_secret')).toBe('ghp_…');
  });
  test('base64 is decoded only when it is base64 of printable text', () => {
    expect(decodedBase64('cGFzc3dvcmQ=')).toBe('password');
    expect(decodedBase64('cGFzc3dv')).toBe('passwo');
    expect(decodedBase64('cGFzcw==')).toBe('pass');
    expect(decodedBase64('cGFzcw')).toBeUndefined(); // length not a multiple of 4
    expect(decodedBase64('cGE=')).toBeUndefined(); // shorter than 8
    expect(decodedBase64('//79/Pv6+fg=')).toBeUndefined(); // not text
    expect(decodedBase64('cGFz c3dv')).toBeUndefined();
    expect(decodedBase64('cGFzc3dvcmQ')).toBeUndefined(); // 11 characters
    expect(decodedBase64('cGFzc3dvcmQ!')).toBeUndefined(); // not the base64 alphabet
  });
  test('ascending runs of n characters, anywhere, up to the last one', () => {
    expect(ascendingRun('Zq1234', 4)).toBe(true);
    expect(ascendingRun('WXYZ', 4)).toBe(true);
    expect(ascendingRun('1243', 4)).toBe(false);
    expect(ascendingRun('abc', 4)).toBe(false);
  });
});

describe('placeholders', () => {
  test('documented example credentials are templates, each of them', () => {
    for (const v of [
      'AKIAIOSFODNN7EXAMPLE',
      'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY',
      'AIzaSyDaGmWKa4JsXZ-HjGw7ISLn_3namBGewQe',
      'sk_test_4eC39HqLyjWDarjtT1zdp7dc',
      'sk_test_BQokikJOvBiI2HlWgH4olfQ2',
      'key-3ax6xnjp29jd6fds4gc373sgvjxteol0',
      '123e4567-e89b-12d3-a456-426614174000',
      '123e4567-e89b-12d3-a456-426655440000',
      'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4gRG9lIiwiaWF0IjoxNTE2MjM5MDIyfQ.SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c',
    ])
      expect({ v, templated: looksTemplated(v) }).toEqual({ v, templated: true });
  });
  test('placeholder words are found in leetspeak and inside base64 text', () => {
    expect(isPlaceholderValue('s3cr3t-v4lu3')).toBe(true);
    expect(isPlaceholderValue(Buffer.from('changeme-please').toString('base64'))).toBe(true);
    expect(isPlaceholderValue(Buffer.from('Zq8vLm3xW7Kp').toString('base64'))).toBe(false);
    expect(isPlaceholderValue('$DB_PASSWORD')).toBe(true);
    expect(isPlaceholderValue('ex4mpl3-Zq8v')).toBe(true);
    expect(looksTemplated('Zq8vvvvvvLm3')).toBe(true);
  });
  test('a token is made up when its random part is placeholder words or has too little entropy', () => {
    expect(isFakeToken('ghp_my_api_key', 'my_api_key')).toBe(true);
    expect(isFakeToken('ghp_my_Zq8vLm3xW7Kp', 'my_Zq8vLm3xW7Kp')).toBe(false);
    expect(isFakeToken('x', spread('Q7mxK2pZ', 2))).toBe(false); // 16 characters, 3 bits
    expect(isFakeToken('x', spread('Q7mx', 4))).toBe(true); // 16 characters, 2 bits
    expect(isFakeToken('x', 'Q7mxQ7mxK2')).toBe(false); // under 16: 2.2 bits are enough
    expect(isFakeToken('x', 'Q7Q7Q7mQ7')).toBe(true);
    expect(isFakeToken('x', 'Q7mxK2Q7mxK2Q7mx')).toBe(true); // 16 characters, 2.6 bits: under 3
    expect(isFakeToken('x', 'Zq8vLm3xEXAMPLEw7Kp2')).toBe(true);
    expect(isFakeToken('x', 'Zq8vLmaaaaaa3xW7Kp2H')).toBe(true);
    expect(isFakeToken('glpat-ab_cd_ef', 'ab_cd_ef')).toBe(false); // short words, none a placeholder
  });
});

describe('a value assigned to a secret-like name', () => {
  const secret = (value: string, name = 'password') => genericValueIsSecret(name, value);
  test('8 to 400 characters without blanks', () => {
    expect(secret('Zq8vLm3x')).toBe(true);
    expect(secret('Zq8vLm3')).toBe(false);
    expect(secret(r(400))).toBe(true);
    expect(secret(r(401))).toBe(false);
    expect(secret('Zq8v Lm3x9')).toBe(false);
  });
  test('the last part of a dotted name is the name; public and paging names are not secrets', () => {
    expect(secret('Zq8vLm3xW7', 'config.password')).toBe(true);
    expect(secret('Zq8vLm3xW7', 'password.page')).toBe(false);
    expect(secret('Zq8vLm3xW7', 'nextToken')).toBe(false);
    expect(secret('Zq8vLm3xW7', 'stripePublicKey')).toBe(false);
    expect(secret('Zq8vLm3xW7', 'passwordHint')).toBe(false);
    expect(secret('Zq8vLm3xW7', 'mockServer.password')).toBe(true);
  });
  test('paths, URLs, Django development keys, MIME types, property paths and header names are not values', () => {
    for (const v of [
      './Zq8vLm3x',
      '~/Zq8vLm3x',
      'https://Zq8vLm3x',
      'django-insecure-Zq8vLm3x9Kp2',
      'application/vnd.api+json',
      'advanced.tavilyApiKey',
      'x-aws-ec2-metadata-token',
    ])
      expect({ v, secret: secret(v) }).toEqual({ v, secret: false });
    expect(secret('Zq8.vLm3.xW7')).toBe(true);
    expect(secret('config.Zq8vLm3xW7')).toBe(true);
    expect(secret('settings.github_token')).toBe(false);
    expect(secret('Settings.github_token')).toBe(false);
    expect(secret('Zq8v-token-Lm3x')).toBe(true);
    expect(secret('zq8-vlm3-xw7k')).toBe(true);
  });
  test('words, one character class, short words with a digit, alphabet runs: typed, not generated', () => {
    expect(secret('ZqvLmxKp')).toBe(false);
    expect(secret('zq8vlm3xkp')).toBe(true);
    expect(secret('zqvlmxkpwt')).toBe(false);
    expect(secret('Bluebirdsky7')).toBe(false);
    expect(secret('Bluebirdskyz7')).toBe(true);
    expect(secret('Kabcdefghq1')).toBe(false);
    expect(secret('Kabcdefghq1Zx7')).toBe(false);
    expect(secret('Kabcdefhgq1Zx7')).toBe(true);
  });
  test('entropy floors: 2.5 bits under 16 characters, 3 under 32, 3.5 from 32', () => {
    expect(secret('Zq8vZq3x')).toBe(true); // 8 characters, exactly 2.5 bits
    expect(secret('Zq8vZq8x')).toBe(false);
    expect(secret(spread('Q7mxK2pZ', 2))).toBe(true); // 16 characters, exactly 3 bits
    expect(secret('Q7mxK2pQ7mxK2pQ7')).toBe(false); // 16 characters, under 3 bits
    expect(secret(spread('Q7mxK2pZr9Tw', 2) + spread('Q7mx', 2))).toBe(true); // 32 characters, exactly 3.5 bits
    expect(secret(spread('Q7mxK2pZ', 4))).toBe(false); // 32 characters, 3 bits
  });
});
