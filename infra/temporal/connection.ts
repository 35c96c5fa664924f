import { readFile } from 'node:fs/promises';
import { Client, Connection } from '@temporalio/client';
import type { Config } from '../config';
import { EncryptionCodec } from './codec';

type TemporalConfig = Pick<
  Config,
  | 'TEMPORAL_ADDRESS'
  | 'TEMPORAL_NAMESPACE'
  | 'TEMPORAL_TLS_CERT_PATH'
  | 'TEMPORAL_TLS_KEY_PATH'
  | 'TEMPORAL_TLS_CA_PATH'
  | 'TEMPORAL_API_KEY'
  | 'DATA_ENCRYPTION_KEY'
>;

/** Connection options shared by the API's client and the worker (TLS and API key from config). */
export async function temporalConnectionOptions(config: TemporalConfig) {
  const mtls = config.TEMPORAL_TLS_CERT_PATH && config.TEMPORAL_TLS_KEY_PATH;
  const tls =
    mtls || config.TEMPORAL_TLS_CA_PATH || config.TEMPORAL_API_KEY
      ? {
          ...(mtls
            ? {
                clientCertPair: {
                  crt: await readFile(config.TEMPORAL_TLS_CERT_PATH!),
                  key: await readFile(config.TEMPORAL_TLS_KEY_PATH!),
                },
              }
            : {}),
          ...(config.TEMPORAL_TLS_CA_PATH ? { serverRootCACertificate: await readFile(config.TEMPORAL_TLS_CA_PATH) } : {}),
        }
      : undefined;
  return {
    address: config.TEMPORAL_ADDRESS,
    tls,
    apiKey: config.TEMPORAL_API_KEY,
    metadata: config.TEMPORAL_API_KEY ? { 'temporal-namespace': config.TEMPORAL_NAMESPACE } : undefined,
    connectTimeout: '10 seconds',
  };
}

/** The data converter both sides use: every payload encrypted with DATA_ENCRYPTION_KEY. */
export function dataConverter(config: Pick<Config, 'DATA_ENCRYPTION_KEY'> & { DATA_ENCRYPTION_KEYS_PREVIOUS?: string }) {
  return { payloadCodecs: [EncryptionCodec.fromBase64(config.DATA_ENCRYPTION_KEY, config.DATA_ENCRYPTION_KEYS_PREVIOUS ?? '')] };
}

/** Connects the API's Temporal client; one clear line when the server cannot be reached. */
export async function createTemporalClient(config: TemporalConfig): Promise<Client> {
  let connection: Connection;
  try {
    connection = await Connection.connect(await temporalConnectionOptions(config));
  } catch (error) {
    throw new Error(`cannot reach Temporal at TEMPORAL_ADDRESS (${config.TEMPORAL_ADDRESS}): ${firstLine(error)}`);
  }
  return new Client({ connection, namespace: config.TEMPORAL_NAMESPACE, dataConverter: dataConverter(config) });
}

export function firstLine(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).split('\n')[0] ?? '';
}
