import type { ColumnType, Generated } from 'kysely';

/** One signature on a letter: the signed copy (the record) and its SHA-256, kept with the case. */
export interface SignedLetterTable {
  signed_key: string;
  case_kind: 'lease_up' | 'recertification';
  case_id: string;
  letter: 'tic' | 'lease';
  letter_key: string;
  sha256: string;
  signer_id: string;
  signed_at: ColumnType<Date, Date | string, Date | string>;
  recorded_at: Generated<Date>;
}

export interface LetterTables {
  signed_letters: SignedLetterTable;
}
