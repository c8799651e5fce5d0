// Reads WARC files with warcio (an independent reader) and prints one JSON
// object per record: type, target URI, HTTP status, WARC digests, and the
// payload digest computed here (sha1, RFC 4648 base32) from what warcio read.
// Usage: node read_warc.mjs FILE.warc.gz...
import { createReadStream } from 'node:fs';
import { createHash } from 'node:crypto';
import { WARCParser } from 'warcio';

function base32(bytes) {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
  let out = '', buffer = 0, bits = 0;
  for (const b of bytes) {
    buffer = (buffer << 8) | b;
    bits += 8;
    while (bits >= 5) {
      out += alphabet[(buffer >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) out += alphabet[(buffer << (5 - bits)) & 31];
  while (out.length % 8) out += '=';
  return out;
}

for (const file of process.argv.slice(2)) {
  const parser = new WARCParser(createReadStream(file));
  for await (const record of parser) {
    const payload = await record.readFully(false);
    const out = {
      file,
      offset: parser.offset,
      version: record.warcHeaders.protocol,
      type: record.warcType,
      uri: record.warcTargetURI ?? null,
      id: record.warcHeader('WARC-Record-ID'),
      concurrent_to: record.warcHeader('WARC-Concurrent-To') ?? null,
      profile: record.warcHeader('WARC-Profile') ?? null,
      refers_to_uri: record.warcHeader('WARC-Refers-To-Target-URI') ?? null,
      refers_to_date: record.warcHeader('WARC-Refers-To-Date') ?? null,
      date: record.warcHeader('WARC-Date') ?? null,
      status: record.httpHeaders ? Number(record.httpHeaders.statusCode) : null,
      payload_digest: record.warcPayloadDigest ?? null,
      block_digest: record.warcBlockDigest ?? null,
      computed_payload_digest: 'sha1:' + base32(createHash('sha1').update(payload).digest()),
      payload_bytes: payload.length,
      payload_head: Buffer.from(payload.slice(0, 200)).toString('utf8'),
    };
    console.log(JSON.stringify(out));
  }
}
