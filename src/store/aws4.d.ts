// The part of aws4 (AWS Signature Version 4) that pg-body-s3.ts uses.
declare module 'aws4' {
  export interface SignOptions {
    host: string;
    path: string;
    method: string;
    service: string;
    region: string;
    headers: Record<string, string | number>;
    body?: Uint8Array | string;
  }
  export interface Credentials {
    accessKeyId: string;
    secretAccessKey: string;
    sessionToken?: string;
  }
  /** Adds the signature headers (Authorization, X-Amz-Date, …) to `options.headers`. */
  export function sign(options: SignOptions, credentials: Credentials): SignOptions;
  const aws4: { sign: typeof sign };
  export default aws4;
}
