import { createHash, generateKeyPairSync, randomBytes, sign, type KeyObject } from 'node:crypto';
import type {
  AuthenticationResponseJSON,
  PublicKeyCredentialCreationOptionsJSON,
  PublicKeyCredentialRequestOptionsJSON,
  RegistrationResponseJSON,
} from '@simplewebauthn/server';
import { encodeCBOR, type CBORType } from '@levischuck/tiny-cbor';

/** Authenticator data flags (WebAuthn Level 3 §6.1): user present, user verified, backup eligible, backed up, attested credential data. */
const UP = 0x01;
const UV = 0x04;
const BE = 0x08;
const BS = 0x10;
const AT = 0x40;

/** CBOR as WebAuthn wants it (maps with integer or text keys, byte strings), by the library @simplewebauthn itself decodes it with. */
const cbor = { encode: (value: CBORType) => Buffer.from(encodeCBOR(value)) };

/** One passkey the authenticator holds: discoverable, so it keeps its user handle. */
interface StoredCredential {
  id: Buffer;
  privateKey: KeyObject;
  rpId: string;
  /** base64url, as the creation options' `user.id` */
  userHandle: string;
  signCount: number;
}

/** What a test may change in a ceremony, to see the server refuse it. */
export interface CeremonyTweaks {
  /** the origin written in clientDataJSON (default: the origin given to the authenticator) */
  origin?: string;
  /** the RP ID whose hash opens the authenticator data (default: the options' RP ID) */
  rpId?: string;
  /** user verification performed (default true): false leaves the UV flag off */
  userVerified?: boolean;
  /** the user handle answered at sign-in (default the credential's) */
  userHandle?: string;
}

const b64url = (bytes: Uint8Array | string) => Buffer.from(bytes).toString('base64url');
const sha256 = (bytes: Uint8Array | string) => createHash('sha256').update(bytes).digest();

/**
 * A software authenticator for tests: a platform passkey provider with ES256 keys (node:crypto),
 * attestation `none`, discoverable credentials, that answers the JSON options the server sends the way
 * a browser's `navigator.credentials` would return them through `@simplewebauthn/browser`.
 * @param origin - the page's origin, written in every clientDataJSON
 */
export function softwareAuthenticator(origin: string) {
  const credentials: StoredCredential[] = [];

  const clientData = (type: 'webauthn.create' | 'webauthn.get', challenge: string, tweaks: CeremonyTweaks) =>
    Buffer.from(JSON.stringify({ type, challenge, origin: tweaks.origin ?? origin, crossOrigin: false }));
  const flagsOf = (tweaks: CeremonyTweaks, extra: number) => UP | (tweaks.userVerified === false ? 0 : UV) | BE | BS | extra;
  const counter = (n: number) => {
    const bytes = Buffer.alloc(4);
    bytes.writeUInt32BE(n);
    return bytes;
  };

  return {
    credentials,
    /** `navigator.credentials.create()`: a new ES256 passkey for the options' RP and user. */
    create(options: PublicKeyCredentialCreationOptionsJSON, tweaks: CeremonyTweaks = {}): RegistrationResponseJSON {
      const rpId = options.rp.id!;
      const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
      const jwk = publicKey.export({ format: 'jwk' });
      const coseKey = new Map<number, CBORType>([
        [1, 2], // kty: EC2
        [3, -7], // alg: ES256
        [-1, 1], // crv: P-256
        [-2, Buffer.from(jwk.x!, 'base64url')],
        [-3, Buffer.from(jwk.y!, 'base64url')],
      ]);
      const id = randomBytes(32);
      const idLength = Buffer.alloc(2);
      idLength.writeUInt16BE(id.length);
      const authData = Buffer.concat([sha256(tweaks.rpId ?? rpId), Buffer.from([flagsOf(tweaks, AT)]), counter(0), Buffer.alloc(16), idLength, id, cbor.encode(coseKey)]);
      const attestationObject = cbor.encode(new Map<string, CBORType>([['fmt', 'none'], ['attStmt', new Map()], ['authData', authData]]));
      credentials.push({ id, privateKey, rpId, userHandle: options.user.id, signCount: 0 });
      return {
        id: b64url(id),
        rawId: b64url(id),
        type: 'public-key',
        response: { clientDataJSON: b64url(clientData('webauthn.create', options.challenge, tweaks)), attestationObject: b64url(attestationObject), transports: ['internal'] },
        clientExtensionResults: {},
        authenticatorAttachment: 'platform',
      };
    },
    /** `navigator.credentials.get()` with no `allowCredentials`: the last passkey held for the RP signs. */
    get(options: PublicKeyCredentialRequestOptionsJSON, tweaks: CeremonyTweaks = {}): AuthenticationResponseJSON {
      const credential = credentials.findLast((c) => c.rpId === options.rpId);
      if (!credential) throw new Error(`no passkey for ${options.rpId}`);
      const authData = Buffer.concat([sha256(tweaks.rpId ?? credential.rpId), Buffer.from([flagsOf(tweaks, 0)]), counter(credential.signCount)]);
      const data = clientData('webauthn.get', options.challenge, tweaks);
      const signature = sign('sha256', Buffer.concat([authData, sha256(data)]), credential.privateKey);
      return {
        id: b64url(credential.id),
        rawId: b64url(credential.id),
        type: 'public-key',
        response: { clientDataJSON: b64url(data), authenticatorData: b64url(authData), signature: b64url(signature), userHandle: tweaks.userHandle ?? credential.userHandle },
        clientExtensionResults: {},
        authenticatorAttachment: 'platform',
      };
    },
  };
}
