/** One hash of every locale file, named in the texts' chunk names (web/build/locale-chunks.ts). */
declare const __LOCALE_HASH__: string;
