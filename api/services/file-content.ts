/**
 * Uploaded files are served back to people (documents, paper applications), so a file must be only
 * what its checked type says. A PDF or image that also holds markup a browser would run (a
 * PDF+HTML polyglot) is refused at upload, whatever the magic bytes say.
 */
const MARKUP = [/<\s*script/i, /<\s*html/i, /<\s*iframe/i, /<\s*svg/i, /<\s*body/i, /<!doctype\s+html/i, /<\s*object/i, /<\s*embed/i, /<\s*meta\s+http-equiv/i, /javascript\s*:/i];

export function holdsMarkup(body: Buffer): boolean {
  // latin1 keeps one character per byte, so binary data cannot hide a tag behind a decoding error.
  const text = body.toString('latin1');
  return MARKUP.some((pattern) => pattern.test(text));
}
