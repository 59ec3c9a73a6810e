import CNIOBoringSSL
import MoyaHTTP

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The authorization server's public keys, as its JSON Web Key Set gives them (RFC 7517):
/// RSA of 2048 bits or more (RS256/384/512, PS256/384/512), EC on P-256 and P-384 (ES256,
/// ES384) and Ed25519 (EdDSA). Keys of any other type, curve or use are skipped, as RFC 7517
/// asks of members a reader does not understand; a key set with none left is refused.
///
/// Signatures are checked by BoringSSL, the copy SwiftNIO's TLS already builds and links
/// (`CNIOBoringSSL`): a second copy, swift-crypto's, would add its build to every clean build,
/// the first result's included (bench/RESULTS.md).
public struct SigningKeys: Sendable {
    /// One verification key.
    struct Key: Sendable {
        enum Material: Sendable {
            /// The modulus and the exponent, big-endian.
            case rsa(n: [UInt8], e: [UInt8])
            /// The curve's NID and the point, uncompressed (`04 || x || y`).
            case ec(curve: Int32, point: [UInt8], size: Int)
            case ed25519([UInt8])
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
            case .ec(let curve, _, _): return algorithm == (curve == NID_X9_62_prime256v1 ? "ES256" : "ES384")
            case .ed25519: return algorithm == "EdDSA" || algorithm == "Ed25519"
            }
        }

        /// Whether `signature` signs `input` with `algorithm`.
        func verifies(_ signature: [UInt8], of input: [UInt8], algorithm: String) -> Bool {
            switch material {
            case .rsa(let n, let e):
                let hash = Digest(algorithm)
                return Self.rsa(n: n, e: e) { rsa in
                    let digest = hash.of(input)
                    return signature.withUnsafeBufferPointer { sig in
                        if algorithm.hasPrefix("PS") {
                            return RSA_verify_pss_mgf1(
                                rsa, digest, digest.count, hash.md, nil, RSA_PSS_SALTLEN_DIGEST, sig.baseAddress,
                                sig.count)
                                == 1
                        }
                        return RSA_verify(hash.nid, digest, digest.count, sig.baseAddress, sig.count, rsa) == 1
                    }
                }
            case .ec(let curve, let point, let size):
                guard signature.count == 2 * size, let key = EC_KEY_new_by_curve_name(curve) else { return false }
                defer { EC_KEY_free(key) }
                guard EC_KEY_oct2key(key, point, point.count, nil) == 1, let pair = ECDSA_SIG_new() else {
                    return false
                }
                defer { ECDSA_SIG_free(pair) }
                let r = BN_bin2bn(signature, size, nil)
                let s = signature.withUnsafeBufferPointer { BN_bin2bn($0.baseAddress.map { $0 + size }, size, nil) }
                guard let r, let s, ECDSA_SIG_set0(pair, r, s) == 1 else {
                    BN_free(r)
                    BN_free(s)
                    return false
                }
                let digest = Digest(curve == NID_X9_62_prime256v1 ? "ES256" : "ES384").of(input)
                return ECDSA_do_verify(digest, digest.count, pair, key) == 1
            case .ed25519(let key):
                guard signature.count == 64, key.count == 32 else { return false }
                return ED25519_verify(input, input.count, signature, key) == 1
            }
        }

        /// `body` with the RSA public key `n`, `e`; false when it is not one of 2048 bits or more.
        static func rsa(n: [UInt8], e: [UInt8], _ body: (OpaquePointer) -> Bool) -> Bool {
            guard let modulus = BN_bin2bn(n, n.count, nil) else { return false }
            defer { BN_free(modulus) }
            guard let exponent = BN_bin2bn(e, e.count, nil) else { return false }
            defer { BN_free(exponent) }
            guard let rsa = RSA_new_public_key(modulus, exponent) else { return false }
            defer { RSA_free(rsa) }
            guard RSA_bits(rsa) >= 2048 else { return false }
            return body(rsa)
        }
    }

    /// The hash an algorithm names by its last three digits: SHA-256, -384 or -512.
    struct Digest {
        let nid: Int32
        let md: OpaquePointer?
        let size: Int
        let function: (UnsafePointer<UInt8>?, Int, UnsafeMutablePointer<UInt8>?) -> UnsafeMutablePointer<UInt8>?

        init(_ algorithm: String) {
            switch algorithm.suffix(3) {
            case "384": (nid, md, size, function) = (NID_sha384, EVP_sha384(), 48, SHA384)
            case "512": (nid, md, size, function) = (NID_sha512, EVP_sha512(), 64, SHA512)
            default: (nid, md, size, function) = (NID_sha256, EVP_sha256(), 32, SHA256)
            }
        }

        func of(_ input: [UInt8]) -> [UInt8] {
            var digest = [UInt8](repeating: 0, count: size)
            input.withUnsafeBufferPointer { bytes in
                digest.withUnsafeMutableBufferPointer { out in
                    _ = function(bytes.baseAddress, bytes.count, out.baseAddress)
                }
            }
            return digest
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
            guard let n = bytes("n"), let e = bytes("e"), Key.rsa(n: n, e: e, { _ in true }) else { return nil }
            material = .rsa(n: n, e: e)
        case ("EC", let curve?) where curve == "P-256" || curve == "P-384":
            let size = curve == "P-256" ? 32 : 48
            guard let x = bytes("x"), let y = bytes("y"), x.count == size, y.count == size else { return nil }
            material = .ec(
                curve: curve == "P-256" ? NID_X9_62_prime256v1 : NID_secp384r1, point: [4] + x + y, size: size)
        case ("OKP", "Ed25519"):
            guard let x = bytes("x"), x.count == 32 else { return nil }
            material = .ed25519(x)
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
