import Crypto
import CryptoExtras
import MoyaHTTP

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The authorization server's public keys, as its JSON Web Key Set gives them (RFC 7517):
/// RSA (RS256/384/512, PS256/384/512), EC on P-256 and P-384 (ES256, ES384) and Ed25519
/// (EdDSA). Keys of any other type, curve or use are skipped, as RFC 7517 asks of members a
/// reader does not understand; a key set with none left is refused.
public struct SigningKeys: Sendable {
    /// One verification key.
    struct Key: Sendable {
        enum Material: Sendable {
            case rsa(_RSA.Signing.PublicKey)
            case p256(P256.Signing.PublicKey)
            case p384(P384.Signing.PublicKey)
            case ed25519(Curve25519.Signing.PublicKey)
        }

        let id: String?
        /// The `alg` the key is pinned to, when the set names one.
        let algorithm: String?
        let material: Material

        /// Whether a token signed with `algorithm` may be checked with this key.
        func fits(_ algorithm: String) -> Bool {
            if let pinned = self.algorithm, pinned != algorithm { return false }
            switch material {
            case .rsa: return ["RS256", "RS384", "RS512", "PS256", "PS384", "PS512"].contains(algorithm)
            case .p256: return algorithm == "ES256"
            case .p384: return algorithm == "ES384"
            case .ed25519: return algorithm == "EdDSA" || algorithm == "Ed25519"
            }
        }

        /// Whether `signature` signs `input` with `algorithm`.
        func verifies(_ signature: [UInt8], of input: [UInt8], algorithm: String) -> Bool {
            switch material {
            case .rsa(let key):
                let padding: _RSA.Signing.Padding = algorithm.hasPrefix("PS") ? .PSS : .insecurePKCS1v1_5
                let signature = _RSA.Signing.RSASignature(rawRepresentation: signature)
                switch algorithm.suffix(3) {
                case "384": return key.isValidSignature(signature, for: SHA384.hash(data: input), padding: padding)
                case "512": return key.isValidSignature(signature, for: SHA512.hash(data: input), padding: padding)
                default: return key.isValidSignature(signature, for: SHA256.hash(data: input), padding: padding)
                }
            case .p256(let key):
                guard let signature = try? P256.Signing.ECDSASignature(rawRepresentation: signature) else {
                    return false
                }
                return key.isValidSignature(signature, for: SHA256.hash(data: input))
            case .p384(let key):
                guard let signature = try? P384.Signing.ECDSASignature(rawRepresentation: signature) else {
                    return false
                }
                return key.isValidSignature(signature, for: SHA384.hash(data: input))
            case .ed25519(let key):
                return key.isValidSignature(signature, for: input)
            }
        }
    }

    let keys: [Key]

    /// Why a key set cannot be used.
    public struct Problem: Error, Sendable, CustomStringConvertible {
        public var description: String
    }

    /// The keys of a JWK Set document.
    public init(jwks bytes: [UInt8]) throws(Problem) {
        guard let document = try? JSONValue(parsing: Data(bytes)) else {
            throw Problem(description: "not JSON")
        }
        guard case .array(let entries)? = document["keys"] else {
            throw Problem(description: "no \"keys\" array, as a JWK Set has")
        }
        keys = entries.compactMap(Self.key)
        guard !keys.isEmpty else {
            throw Problem(description: "no RSA, P-256, P-384 or Ed25519 signing key among its \(entries.count)")
        }
    }

    /// One JWK, when it is a signing key of a kind this reader knows.
    static func key(_ jwk: JSONValue) -> Key? {
        func member(_ name: String) -> String? {
            guard case .string(let text)? = jwk[name] else { return nil }
            return text
        }
        func bytes(_ name: String) -> [UInt8]? { member(name).flatMap(Base64URL.decode) }
        if let use = member("use"), use != "sig" { return nil }
        let material: Key.Material?
        switch (member("kty"), member("crv")) {
        case ("RSA", _):
            guard let n = bytes("n"), let e = bytes("e") else { return nil }
            material = (try? _RSA.Signing.PublicKey(n: n, e: e)).map(Key.Material.rsa)
        case ("EC", "P-256"):
            guard let x = bytes("x"), let y = bytes("y") else { return nil }
            material = (try? P256.Signing.PublicKey(rawRepresentation: x + y)).map(Key.Material.p256)
        case ("EC", "P-384"):
            guard let x = bytes("x"), let y = bytes("y") else { return nil }
            material = (try? P384.Signing.PublicKey(rawRepresentation: x + y)).map(Key.Material.p384)
        case ("OKP", "Ed25519"):
            guard let x = bytes("x") else { return nil }
            material = (try? Curve25519.Signing.PublicKey(rawRepresentation: x)).map(Key.Material.ed25519)
        default:
            material = nil
        }
        return material.map { Key(id: member("kid"), algorithm: member("alg"), material: $0) }
    }

    /// The keys that may check a token of `algorithm` with key id `id`: the one of that id,
    /// or, when the token names none, every key that fits.
    func candidates(algorithm: String, id: String?) -> [Key] {
        keys.filter { key in key.fits(algorithm) && (id == nil || key.id == id) }
    }

    /// Whether a key of id `id` is in the set.
    func knows(_ id: String) -> Bool { keys.contains { $0.id == id } }
}

/// base64url without padding (RFC 4648 section 5), as JOSE writes it.
enum Base64URL {
    static func decode(_ text: some StringProtocol) -> [UInt8]? {
        var standard = String(text.map { $0 == "-" ? "+" : $0 == "_" ? "/" : $0 })
        guard !standard.contains("=") else { return nil }
        while standard.utf8.count % 4 != 0 { standard += "=" }
        return Data(base64Encoded: standard).map(Array.init)
    }
}
