import Foundation

/// Every form of a secret that must never be printed: raw, percent-encoded (both hex cases,
/// form and query), JSON-escaped once and twice, base64 (alone and as Basic credentials), and
/// JSON's `\u` spelling of each character and of each character that is not a letter or digit.
public enum SecretForms {
    /// The encoders' forms: what Foundation's encoders make of `secret`.
    public static func encoded(_ secret: String) -> [String] {
        let unreserved = CharacterSet(
            charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~")
        let percent = secret.addingPercentEncoding(withAllowedCharacters: unreserved) ?? secret
        let query = secret.addingPercentEncoding(
            withAllowedCharacters: unreserved.union(CharacterSet(charactersIn: "/?")))
        let urlForms = [
            secret, percent, percent.lowercased(), percent.replacingOccurrences(of: "%20", with: "+"), query ?? secret,
        ]
        func json(_ text: String) -> [String] {
            guard let data = try? JSONEncoder().encode(text) else { return [] }
            let escaped = String(String(decoding: data, as: UTF8.self).dropFirst().dropLast())
            return [escaped, escaped.replacingOccurrences(of: "\\/", with: "/")]
        }
        // JSON inside JSON too: a message that quotes a server's JSON string escapes it again.
        return urlForms.flatMap { [$0] + json($0) + json($0).flatMap(json) } + [
            Data(secret.utf8).base64EncodedString(),
            Data("ann:\(secret)".utf8).base64EncodedString(),
        ]
    }

    /// `encoded(secret)` and the `\u` spellings.
    public static func all(_ secret: String) -> [String] {
        func escaped(_ scalar: Unicode.Scalar) -> String {
            String(scalar).utf16.map {
                "\\u" + String(repeating: "0", count: 4 - String($0, radix: 16).count) + String($0, radix: 16)
            }
            .joined()
        }
        let every = secret.unicodeScalars.map(escaped).joined()
        let symbols = secret.unicodeScalars.map {
            CharacterSet.alphanumerics.contains($0) && $0.isASCII ? String($0) : escaped($0)
        }.joined()
        return encoded(secret) + [every, every.uppercased().replacing("\\U", with: "\\u"), symbols]
    }
}
