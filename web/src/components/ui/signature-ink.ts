import type { PointGroup } from 'signature_pad';

/** A rectangle in CSS pixels of the signature box (or backing pixels of an image). */
export interface InkBox {
  left: number;
  top: number;
  right: number;
  bottom: number;
}

/**
 * Where the pen went, in CSS pixels of the box, widened by half the widest pen stroke: the part of
 * the signature the signed image has to hold. Null when nothing was drawn.
 */
export function strokeBounds(groups: PointGroup[]): InkBox | null {
  let box: InkBox | null = null;
  for (const group of groups) {
    const half = (group.maxWidth ?? 2.5) / 2;
    for (const p of group.points) {
      box = box
        ? { left: Math.min(box.left, p.x - half), top: Math.min(box.top, p.y - half), right: Math.max(box.right, p.x + half), bottom: Math.max(box.bottom, p.y + half) }
        : { left: p.x - half, top: p.y - half, right: p.x + half, bottom: p.y + half };
    }
  }
  return box;
}

/**
 * Whether the whole drawing lies inside a box of `width` × `height` CSS pixels: a stroke that left
 * the box (the pen kept moving past its edge) would be cut off in the signed image, so the image
 * would not be the signature the person made.
 */
export function fitsInBox(bounds: InkBox, width: number, height: number): boolean {
  // The pen's half width may spill a pixel over the edge where a stroke starts at the very border.
  const slack = 1;
  return bounds.left >= -slack && bounds.top >= -slack && bounds.right <= width + slack && bounds.bottom <= height + slack;
}

/** The box around every pixel darker than the white paper, in the image's own pixels; null if blank. */
export function inkPixelBounds(data: Uint8ClampedArray, width: number, height: number): InkBox | null {
  let left = width;
  let top = height;
  let right = -1;
  let bottom = -1;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = (y * width + x) * 4;
      if (data[i]! < 200 || data[i + 1]! < 200 || data[i + 2]! < 200) {
        if (x < left) left = x;
        if (x > right) right = x;
        if (y < top) top = y;
        if (y > bottom) bottom = y;
      }
    }
  }
  return right < 0 ? null : { left, top, right: right + 1, bottom: bottom + 1 };
}
