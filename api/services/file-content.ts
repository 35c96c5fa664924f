/**
 * Uploaded files are served back to people (documents, paper applications), so a file must be only
 * what its checked type says. A PDF or image that also holds markup a browser would run (a
 * PDF+HTML polyglot) is refused at upload, whatever the magic bytes say.
 *
 * A tag counts only when its name ends (whitespace, `>` or `/`): compressed image and PDF data is
 * close to random bytes, and a bare `<svg` turns up by chance in about 2% of 10 MB photos; with the
 * ending it is about 1 in 1,500, and such an upload is refused with the ordinary invalid-file answer.
 */
const TAG_END = String.raw`[\s>/]`;
const MARKUP = [
  ...['script', 'html', 'iframe', 'svg', 'body', 'object', 'embed'].map((tag) => new RegExp(String.raw`<\s*${tag}${TAG_END}`, 'i')),
  /<!doctype\s+html/i,
  /<\s*meta\s+http-equiv/i,
  /javascript\s*:/i,
];

export function holdsMarkup(body: Buffer): boolean {
  // latin1 keeps one character per byte, so binary data cannot hide a tag behind a decoding error.
  const text = body.toString('latin1');
  return MARKUP.some((pattern) => pattern.test(text));
}
