#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The one renderer of secrets: every output (logs, `--curl`, `--dry-run`, reports, failures,
/// recorded samples, serve's log) prints through it.
///
/// What is secret is decided where a value is bound, never here: the resolver marks a spec's
/// secret params, headers, `auth:` and environment values, `-H` binds credential headers
/// (`CredentialNames`), a flow marks its secret captures and cookies, a login its tokens. They
/// are gathered in a `SecretSet`, and a redactor is made from one and renders with it:
///
/// - A request is printed from its masked twin: the same request, built by the same code, with
///   each secret value replaced by `Redactor.placeholder` before any encoding. The placeholder
///   is letters and digits only, so every encoder (percent, form, JSON, multipart) passes it
///   through unchanged, and the printer shows each one as the mask. No secret, in any encoded
///   form, is ever in the twin, and nothing that is not a secret is masked.
/// - Text a server sent may echo a secret; `scrub(_:)` removes each secret's encoded forms from
///   it. It is the only text searched.
/// - A JSON document a server sent is masked whole string by whole string (`masking(_:)`),
///   however short a secret is, before it is written anywhere that lasts.
public struct Redactor: Sendable {
    /// What a secret prints as.
    public static let mask = "••••"
    /// What a secret is replaced with while a masked twin is built: letters and digits, with a
    /// random part chosen once per process, so that no other text can hold it.
    public static let placeholder = "moyasecret" + nonce + "z"
    /// The random part of the placeholder and of references, chosen once per process.
    static let nonce: String = {
        var generator = SystemRandomNumberGenerator()
        return String(generator.next() as UInt64, radix: 36)
    }()
    /// What begins a reference to an environment variable in a masked twin (`reference(to:)`).
    static let referencePrefix = "moyaenv" + nonce + "x"
    /// Secrets shorter than this are never scrubbed from server text: they would mask
    /// innocent characters everywhere.
    public static let shortestScrubbed = 4

    /// Whether anything is hidden; `--show-secrets` turns this off.
    public var isEnabled: Bool
    /// What is secret: the set this redactor was made from.
    public let secrets: SecretSet
    /// Header names, lowercased, whose values are hidden whole: the set's, and every
    /// credential header (`CredentialNames.headers`).
    public let secretHeaders: Set<String>
    /// The secret values long enough to scrub from text a server sent, longest first.
    public let secretValues: [String]
    /// The values of the secrets that read as numbers, so that a server echoing one as a JSON
    /// number is masked too.
    private let numericValues: Set<Double>
    /// Every encoded form of every secret up to `eagerLength` bytes, worked out once into one
    /// automaton that finds them all in a single pass, JSON's `\u` spellings included: a
    /// redactor scrubs many texts, some of them megabytes.
    private let matcher: SharedSecretMatcher
    /// Longer secrets, whose forms are worked out only for a text long enough to hold one
    /// (every form is at least as long as its secret), so that a secret of megabytes costs
    /// nothing for the many short texts printed after it.
    private let longSecrets: [String]
    /// The longest secret whose forms are worked out at once.
    static let eagerLength = 4096
    /// The request's masked twin, printed in its place when set.
    public var maskedRequest: Request?
    /// Whether a response's body is left out of logs whole: a secret is taken from it, as a
    /// flow's secret capture is, and only the body's structure could say where it stands.
    public var hidesResponseBody = false

    /// A redactor that hides `secrets`; `isEnabled: false` (`--show-secrets`) hides nothing.
    public init(secrets: SecretSet = .none, isEnabled: Bool = true, maskedRequest: Request? = nil) {
        self.isEnabled = isEnabled
        self.secrets = secrets
        secretHeaders = CredentialNames.headers.union(secrets.headers)
        numericValues = Set(secrets.values.compactMap(Self.numericValue))
        // Longest first, so that a secret containing another is hidden whole.
        secretValues = secrets.values.filter { $0.utf8.count >= Self.shortestScrubbed }.sorted {
            $0.utf8.count > $1.utf8.count
        }
        matcher = SharedSecretMatcher(secrets: self.secretValues.filter { $0.utf8.count <= Self.eagerLength })
        longSecrets = self.secretValues.filter { $0.utf8.count > Self.eagerLength }
        self.maskedRequest = maskedRequest
    }

    /// A redactor that hides `secretValues` and the values of `secretHeaders`: a redactor made
    /// from `SecretSet(values: secretValues, headers: secretHeaders)`.
    public init(
        isEnabled: Bool = true, secretHeaders: Set<String> = [], secretValues: Set<String> = [],
        maskedRequest: Request? = nil
    ) {
        self.init(
            secrets: SecretSet(values: secretValues, headers: secretHeaders), isEnabled: isEnabled,
            maskedRequest: maskedRequest)
    }

    /// This redactor with more secrets: `values` bound after it was made (a login's token, a
    /// flow's captures), and `headers` whose values are secret whole.
    public func adding(_ values: some Sequence<String>, headers: some Sequence<String> = [String]()) -> Redactor {
        adding(SecretSet(values: values, headers: headers))
    }

    /// This redactor with what `more` holds too.
    public func adding(_ more: SecretSet) -> Redactor {
        guard !more.isSubset(of: secrets) else { return self }
        var made = Redactor(secrets: secrets.adding(more), isEnabled: isEnabled, maskedRequest: maskedRequest)
        made.hidesResponseBody = hidesResponseBody
        return made
    }

    /// The redactor for everything printed of `response`'s exchange: with the credentials it
    /// carried (see `credentials(seenIn:)`), which the request's headers, the cookie jar and
    /// the server's `Set-Cookie` bound.
    public func exchanged(_ response: Response) -> Redactor {
        guard isEnabled else { return self }
        return adding(credentials(seenIn: response))
    }

    // MARK: - Requests

    /// The request as it may be printed: the masked twin when there is one, credential and
    /// secret headers masked, and a URL's password masked.
    ///
    /// Without a twin (a library caller that has none), the request's own text is scrubbed of
    /// `secretValues` as server text is: the best that can be done after encoding. moya-cli
    /// always prints from a twin.
    public func printable(_ request: Request) -> PrintableRequest {
        guard isEnabled else {
            return PrintableRequest(request, masking: false, text: { $0 }, header: { _, value in value })
        }
        let hasTwin = maskedRequest != nil
        return PrintableRequest(
            maskedRequest ?? request, masking: true, text: { hasTwin ? Self.showPlaceholders($0) : scrub($0) },
            header: { name, value in
                guard secretHeaders.contains(name.lowercased()) else { return value }
                return hasTwin ? Self.shownCredential(value) : Self.mask
            },
            shell: { name, value in hasTwin ? Self.shellWord(name: name, value: value) : nil })
    }

    /// Twin text with each placeholder shown as the mask, and each reference as `${NAME}`.
    public static func showPlaceholders(_ text: String) -> String {
        var shown = text.contains(placeholder) ? text.replacing(placeholder, with: mask) : text
        if shown.contains(referencePrefix) {
            shown = pieces(of: shown).map { $0.isReference ? "${\($0.text)}" : $0.text }.joined()
        }
        return shown
    }

    /// The header fields a request went out with (`sent`, in the order sent, as
    /// `Session.wireHeaders(for:)` gives them), as they may be printed: each of the request's
    /// own as its printable form `shown` has it, and each the transport added as `header`
    /// prints a response's. The cookie jar's cookies joined to a `Cookie` are masked whole.
    public func wire(_ shown: [(name: String, value: String)], sent: HTTPHeaders) -> [(name: String, value: String)] {
        var own = shown
        return sent.map { field in
            if let index = own.firstIndex(where: { HTTPHeaders.sameName($0.name, field.name) }) {
                let printed = own.remove(at: index)
                if printed.value == Self.mask || HTTPHeaders.sameName(field.name, "Cookie") {
                    return (field.name, header(name: field.name, value: field.value))
                }
                return (field.name, printed.value)
            }
            return (field.name, header(name: field.name, value: field.value))
        }
    }

    // MARK: - References

    /// What a credential a header takes from `${name}` is replaced with in a masked twin, in
    /// place of the placeholder: letters and digits, the name in hex, so that the twin is built
    /// by the same code, and printed as `${name}`, a shell reference, where the header may be
    /// (`shownHeader(name:value:)`). A command printed that way runs as it is, reading the
    /// secret from the user's environment, and shows nothing of it.
    public static func reference(to name: String) -> String {
        let digits = Array("0123456789abcdef")
        return referencePrefix + name.utf8.map { "\(digits[Int($0 >> 4)])\(digits[Int($0 & 15)])" }.joined() + "z"
    }

    /// Twin text as literal text and references, in order.
    static func pieces(of text: String) -> [(text: String, isReference: Bool)] {
        var pieces: [(text: String, isReference: Bool)] = []
        var rest = text[...]
        while let start = rest.firstRange(of: referencePrefix) {
            let hex = rest[start.upperBound...].prefix { $0 != "z" }
            let bytes = stride(from: 0, to: hex.utf8.count - 1, by: 2).compactMap { offset -> UInt8? in
                let index = hex.index(hex.startIndex, offsetBy: offset)
                return UInt8(hex[index..<hex.index(index, offsetBy: 2)], radix: 16)
            }
            guard hex.utf8.count % 2 == 0, hex.endIndex < rest.endIndex, bytes.count * 2 == hex.utf8.count,
                let name = String(validating: bytes, as: UTF8.self)
            else { break }
            if start.lowerBound > rest.startIndex { pieces.append((String(rest[..<start.lowerBound]), false)) }
            pieces.append((name, true))
            rest = rest[rest.index(after: hex.endIndex)...]
        }
        if !rest.isEmpty { pieces.append((String(rest), false)) }
        return pieces
    }

    /// A credential header's twin value as it may be printed: with its references, where they
    /// are all its secret holds (nothing but a scheme, `Bearer `, written beside them), else
    /// the mask.
    static func shownCredential(_ value: String) -> String {
        guard value.contains(referencePrefix), !value.contains(placeholder) else { return mask }
        let pieces = pieces(of: value)
        guard pieces.contains(where: \.isReference) else { return mask }
        let literal = pieces.filter { !$0.isReference }.map(\.text).joined()
        let isScheme =
            literal.isEmpty
            || (literal.hasSuffix(" ") && literal.dropLast().allSatisfy { $0.isLetter || $0.isNumber || $0 == "-" }
                && literal.count > 1)
        return isScheme ? value : mask
    }

    /// `name: value` as one double-quoted POSIX shell word in which each reference is
    /// expanded, `"Authorization: Bearer ${TOKEN}"`; nil when the value holds none.
    static func shellWord(name: String, value: String) -> String? {
        guard value.contains(referencePrefix) else { return nil }
        let pieces = pieces(of: "\(name): \(value)")
        guard pieces.contains(where: \.isReference) else { return nil }
        var word = "\""
        for piece in pieces {
            if piece.isReference {
                word += "${\(piece.text)}"
            } else {
                for character in showPlaceholders(piece.text) {
                    if "\\\"$`".contains(character) { word.append("\\") }
                    word.append(character)
                }
            }
        }
        return word + "\""
    }

    /// A response header's value as it may be printed: credential and secret headers masked,
    /// any other scrubbed of echoed secrets.
    public func header(name: String, value: String) -> String {
        guard isEnabled else { return value }
        if secretHeaders.contains(name.lowercased()) { return Self.mask }
        return scrub(value)
    }

    /// The values of `headers` that are credentials or secrets (see `secretHeaders`), as a
    /// server may echo them: each whole, an Authorization's credentials after its scheme, each
    /// cookie's value, and the value each `Set-Cookie` sets.
    public func credentials(in headers: HTTPHeaders) -> Set<String> {
        var values: Set<String> = []
        for field in headers where secretHeaders.contains(field.name.lowercased()) {
            values.insert(field.value)
            switch field.name.lowercased() {
            case "cookie":
                for pair in field.value.split(separator: ";") {
                    guard let equals = pair.firstIndex(of: "=") else { continue }
                    values.insert(String(pair[pair.index(after: equals)...]))
                }
            case "set-cookie":
                if let pair = CookieJar.nameAndValue(field.value) { values.insert(pair.value) }
            default:
                if let space = field.value.firstIndex(of: " ") {
                    values.insert(String(field.value[field.value.index(after: space)...]))
                }
            }
        }
        return values.filter { !$0.isEmpty }
    }

    /// Every credential `response` saw (see `credentials(in:)`): in the request, in each
    /// redirect's response, whose cookies the later hops carried, and in the response itself.
    public func credentials(seenIn response: Response) -> Set<String> {
        var values = credentials(in: response.request?.headers ?? HTTPHeaders())
        for hop in response.response?.redirects ?? [] { values.formUnion(credentials(in: hop.head.headers)) }
        return values.union(credentials(in: response.headers))
    }

    // MARK: - Server text

    /// Text from a server, or any text not built from a twin, with every secret removed in each
    /// form an encoder could have given it: raw, percent-encoded (RFC 3986 and form), JSON-escaped
    /// (any character as `\uXXXX` too) and base64.
    public func scrub(_ text: String) -> String {
        guard isEnabled, !matcher.isEmpty || !longSecrets.isEmpty, !text.isEmpty else { return text }
        return String(decoding: scrub(bytes: Array(text.utf8)), as: UTF8.self)
    }

    /// A URL from a server, such as the next page's, as a masked twin holds it: each secret's
    /// forms (as `scrub(_:)` finds them) replaced by the placeholder, which keeps it a URL and
    /// prints as the mask.
    public func masking(url: URL) -> URL {
        guard isEnabled, !secretValues.isEmpty else { return url }
        let text = String(decoding: scrub(bytes: Array(url.absoluteString.utf8), with: Self.placeholder), as: UTF8.self)
        return URL(string: text) ?? url
    }

    /// Bytes from a server that may not be text, such as a body `--record` writes to a file,
    /// with each secret's forms (as `scrub(_:)` finds them) replaced by the mask's bytes, in
    /// one pass for all of them, however large the bytes.
    public func scrub(bytes: [UInt8], with replacement: String = Redactor.mask) -> [UInt8] {
        guard isEnabled, !secretValues.isEmpty, !bytes.isEmpty else { return bytes }
        var result = bytes
        // Secrets longer than `eagerLength` first, one form at a time: a shorter secret inside
        // one masked first would leave the rest of it unmatched.
        for form in longSecrets.filter({ $0.utf8.count <= bytes.count }).flatMap(Self.encodedForms).map({
            Array($0.utf8)
        }) where form.count <= result.count {
            result = result.replacing(form, with: replacement.utf8)
        }
        return matcher.matcher?.masking(result, with: Array(replacement.utf8)) ?? result
    }

    /// `json` with every secret gone: strings that are one whole masked (`masking(_:)`), then
    /// every form of every secret scrubbed from the other strings and the keys, as
    /// `scrub(_:)` scrubs text. For a JSON value from a server that is shown as JSON.
    public func scrubbing(_ json: JSONValue) -> JSONValue {
        guard isEnabled, !secrets.values.isEmpty else { return json }
        func scrubbed(_ value: JSONValue, depth: Int) -> JSONValue {
            switch value {
            case .string(let text): return .string(scrub(text))
            case .array(let items) where depth < 512: return .array(items.map { scrubbed($0, depth: depth + 1) })
            case .object(let members) where depth < 512:
                return .object(members.map { (key: scrub($0.key), value: scrubbed($0.value, depth: depth + 1)) })
            default: return value
            }
        }
        return scrubbed(masking(json), depth: 0)
    }

    /// `json` with every string that is a secret, whole, replaced by the mask, however short
    /// the secret: the value the JSON then holds is the secret itself, not text that may
    /// merely contain it. A number whose value a secret of digits spells (a PIN, an account
    /// number, echoed as a JSON number) is masked the same way. The depth is the parser's.
    public func masking(_ json: JSONValue) -> JSONValue {
        guard isEnabled, !secrets.values.isEmpty else { return json }
        switch json {
        case .string(let text) where secrets.values.contains(text): return .string(Self.mask)
        case .integer, .number: return isSecret(number: json) ? .string(Self.mask) : json
        case .array(let items): return .array(items.map(masking))
        case .object(let members): return .object(members.map { (key: $0.key, value: masking($0.value)) })
        default: return json
        }
    }

    /// Whether a JSON number is a secret's value: its text is one, or its value is that of a
    /// secret written as a JSON number (`0042` and `42.0` spell 42 too).
    func isSecret(number: JSONValue) -> Bool {
        guard isEnabled, !numericValues.isEmpty else { return false }
        switch number {
        case .integer(let int): return secrets.values.contains(String(int)) || numericValues.contains(Double(int))
        case .number(let double): return numericValues.contains(double)
        default: return false
        }
    }

    /// A secret's value as a number, when it is written as one: digits with an optional sign,
    /// fraction and exponent, as JSON or a person writes a number; nil for any other text.
    static func numericValue(_ secret: String) -> Double? {
        let bytes = secret.utf8
        guard bytes.count <= 64, bytes.contains(where: { (48...57).contains($0) }),
            bytes.allSatisfy({ (48...57).contains($0) || $0 == 43 || $0 == 45 || $0 == 46 || $0 == 69 || $0 == 101 }),
            let value = Double(secret), value.isFinite
        else { return nil }
        return value
    }

    /// Every form a secret may take in text, longest first: raw, percent-encoded (as a path
    /// segment, a query value and a form value, either case of hex), JSON-escaped (with and
    /// without `\/`, once or twice), base64 and base64url, and each URL form inside JSON, as a
    /// server that echoes a request's URL or body in a JSON document writes it.
    static func encodedForms(of secret: String) -> [String] {
        let percent = PercentEncoding.encode(secret, keeping: PercentEncoding.isUnreserved)
        let form = PercentEncoding.encode(secret) { PercentEncoding.isUnreserved($0) || $0 == UInt8(ascii: " ") }
            .replacing(" ", with: "+")
        let urlForms = [secret, percent, lowercasedEscapes(percent), form, URLEncoding.escape(secret)]
        let base64 = Data(secret.utf8).base64EncodedString()
        let base64URL = base64.replacing("+", with: "-").replacing("/", with: "_").replacing("=", with: "")
        var forms: [String] = []
        // JSON inside JSON too: httpbin, for one, echoes a JSON body as a JSON string.
        let jsonForms = { (text: String) in Self.jsonForms(text) + Self.jsonForms(text).flatMap(Self.jsonForms) }
        for candidate in urlForms.flatMap({ [$0] + jsonForms($0) }) + [base64, base64URL]
        where !forms.contains(candidate) {
            forms.append(candidate)
        }
        return forms.sorted { $0.utf8.count > $1.utf8.count }
    }

    /// `text` as it stands inside a JSON string, with and without `/` escaped.
    private static func jsonForms(_ text: String) -> [String] {
        [false, true].map { escapeSlashes in
            String(JSONValue.string(text).serialized(escapeSlashes: escapeSlashes).dropFirst().dropLast())
        }
    }

    private static func lowercasedEscapes(_ text: String) -> String {
        var bytes = Array(text.utf8)
        var index = 0
        while index < bytes.count {
            if bytes[index] == UInt8(ascii: "%"), index + 2 < bytes.count {
                for offset in 1...2 where (UInt8(ascii: "A")...UInt8(ascii: "F")).contains(bytes[index + offset]) {
                    bytes[index + offset] += 32
                }
                index += 3
            } else {
                index += 1
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
