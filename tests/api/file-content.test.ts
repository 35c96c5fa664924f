import { describe, expect, it } from 'vitest';
import { holdsMarkup } from '../../api/services/file-content';

/** Bytes that look like compressed image data: a fixed-seed xorshift stream (the same every run). */
function noise(length: number, seed = 0x2545f491): Buffer {
  const out = Buffer.alloc(length);
  let x = seed >>> 0;
  for (let i = 0; i < length; i++) {
    x ^= x << 13;
    x >>>= 0;
    x ^= x >>> 17;
    x ^= x << 5;
    x >>>= 0;
    out[i] = x & 0xff;
  }
  return out;
}

/** The polyglot check at upload refuses markup a browser would run, not chance bytes. */
describe('markup in an uploaded file', () => {
  it('finds page markup anywhere in the file', () => {
    const pdf = Buffer.from('%PDF-1.7\n1 0 obj\n<< >>\nendobj\n');
    for (const markup of ['<html><body>x</body></html>', '<script>alert(1)</script>', '< svg onload=alert(1)>', '<!DOCTYPE html>', '<iframe src=x>', '<a href="javascript:alert(1)">', '<meta http-equiv="refresh">', '<SCRIPT\nsrc=x>']) {
      expect(holdsMarkup(Buffer.concat([pdf, noise(4096), Buffer.from(markup), noise(4096)])), markup).toBe(true);
    }
  });

  it('passes a tag-like run of bytes that does not end like a tag, and 10 MB of image-like noise', () => {
    expect(holdsMarkup(Buffer.from('<svgz<htmlx<bodyguard<objects'))).toBe(false);
    expect(holdsMarkup(noise(10 * 1024 * 1024))).toBe(false);
  });
});
