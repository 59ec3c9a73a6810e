import MoyaCommandSupport
import MoyaHTTP
import MoyaSpec

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// A request typed on the command line, `call URL [ITEM...]`, with HTTPie's and xh's request
/// items, as the spec target that sends it. A call with no spec sends exactly what that target,
/// saved with `--save`, sends again: the request exists only as a target.
///
/// Items, each one word, split at the first separator it holds (`:=` and `==` before `=` and
/// `:` at the same place):
/// - `Header:value`, a header;
/// - `name==value`, a query item;
/// - `name=value`, a JSON string member; `name=@FILE`, one read from a file; `user[name]=…`,
///   `tags[]=…` and `a[0]=…` nest it, as HTTPie's nested JSON does;
/// - `name:=json`, a JSON member of any type; `name:=@FILE`, one read from a file;
/// - `Header;`, a header sent with an empty value;
/// - `@FILE`, the whole body, read from a file.
///
/// With `--form` (`form`), `name=value` items are the fields of a form, sent urlencoded, and
/// `name@FILE` a file part, which makes it multipart, as HTTPie's `--form` does; with
/// `--multipart` (`multipart`) the form is multipart with or without files, as HTTPie's.
///
/// A separator written after `\` is part of the name (`a\=b=c` is member `a=b`), as HTTPie
/// reads it.
public struct AdHocRequest: Sendable {
    /// One query item or JSON member, and the param it becomes.
    struct Value: Sendable {
        var key: String
        var values: [JSONValue]
        /// Whether its name says it holds a credential (`CredentialNames`).
        var isCredential: Bool
        /// The param's name, set once every name is known.
        var param = ""
    }

    /// `scheme://host[:port]`, the base URL of a new spec.
    public let origin: String
    /// The URL's path, as typed (percent-encoded).
    public let path: String
    /// The method `-X` gave, uppercased.
    public let method: String?
    /// Header fields in the order given.
    var headers: [(name: String, value: String)] = []
    /// Query items, the URL's own first, in the order given; a name repeated is one array.
    var query: [Value] = []
    /// JSON members in the order given.
    var fields: [Value] = []
    /// `@FILE`: the path of the body, as the user typed it.
    public private(set) var bodyFile: String?
    /// `--form`: `name=value` items are a form's fields, not JSON members.
    public let isForm: Bool
    /// `--multipart`: the form is sent as `multipart/form-data`, files or not.
    public let isMultipart: Bool
    /// `name@FILE` items of a form: each part's name, the path as typed, and its param.
    var files: [(key: String, path: String, param: String)] = []
    /// Basic credentials, the URL's `user:password` or `-a USER:PASSWORD`: sent after the
    /// headers, as a spec's `auth:` sends them, which is how `--save` writes them.
    var basic: (user: String, password: String)?
    /// `--body`: the whole body, as given.
    var wholeBody: WholeBody?
    /// `--all`: the pages a `Link` header names are followed, as GitHub's and most APIs'
    /// are; a URL has no spec to say otherwise.
    public var followsLinks = false

    /// A whole body given with `--body`: JSON, sent as a JSON body, or other text.
    enum WholeBody {
        case json(JSONValue)
        case text(String)
    }

    /// The URL in `word` when it is one: `http://` or `https://`, or a host and path with no
    /// scheme (`example.com/get`, `localhost:8080`), taken as `http://` as HTTPie and xh do,
    /// or localhost's port and path (`:8080/get`, `:/get`). Nil for a `SERVICE.TARGET`.
    public static func url(in word: String) -> String? {
        if word.hasPrefix(":"), let next = word.dropFirst().first, next.isNumber || next == "/" {
            return "http://localhost" + (next == "/" ? word.dropFirst() : word[...])
        }
        let lowered = word.lowercased()
        if lowered.hasPrefix("http://") || lowered.hasPrefix("https://") { return word }
        if word.contains("://") { return word }
        guard let first = word.first, first.isLetter || first.isNumber,
            word.contains("/") || word.contains(":")
        else { return nil }
        return "http://" + word
    }

    /// Parses `url` and the request items, reading `name=@FILE` values with `read`: by default
    /// the user's own paths, relative to the working directory, each a regular file of at most
    /// `FileRoot.readLimit` bytes, never a FIFO or a device waited on.
    public init(
        url: String, items: [String], method: String?, form: Bool = false, multipart: Bool = false,
        read: (String) -> Data? = AdHocRequest.read
    ) throws(AdHocError) {
        isForm = form || multipart
        isMultipart = multipart
        guard let schemeEnd = url.firstRange(of: "://") else { throw AdHocError("'\(url)' is not a URL") }
        let scheme = url[..<schemeEnd.lowerBound].lowercased()
        guard scheme == "http" || scheme == "https" else {
            throw AdHocError("'\(url)' is not an http or https URL")
        }
        let rest = url[schemeEnd.upperBound...]
        let withoutFragment = rest[..<(rest.firstIndex(of: "#") ?? rest.endIndex)]
        let authorityEnd = withoutFragment.firstIndex { $0 == "/" || $0 == "?" } ?? withoutFragment.endIndex
        var authority = withoutFragment[..<authorityEnd]
        var basic: (user: String, password: String)?
        if let at = authority.lastIndex(of: "@") {
            // `user:password@host` is Basic credentials, sent as curl sends them.
            let userInfo = authority[..<at]
            let colon = userInfo.firstIndex(of: ":")
            basic = (
                PercentEncoding.decode(userInfo[..<(colon ?? userInfo.endIndex)]),
                colon.map { PercentEncoding.decode(userInfo[userInfo.index(after: $0)...]) } ?? ""
            )
            authority = authority[authority.index(after: at)...]
        }
        guard !authority.isEmpty, !authority.contains(where: { $0 == " " || $0 == "{" || $0 == "}" }) else {
            throw AdHocError("'\(url)' has no host")
        }
        origin = scheme + "://" + authority
        let afterAuthority = withoutFragment[authorityEnd...]
        let queryStart = afterAuthority.firstIndex(of: "?")
        path = String(afterAuthority[..<(queryStart ?? afterAuthority.endIndex)])
        if let method, !Self.isMethod(method) {
            let known = Method.allKnown.map(\.rawValue).joined(separator: ", ")
            throw AdHocError("-X takes one of \(known), not '\(method)'")
        }
        self.method = method?.uppercased()
        self.basic = basic
        if let queryStart {
            let text = afterAuthority[afterAuthority.index(after: queryStart)...]
            for pair in text.split(separator: "&") {
                let equals = pair.firstIndex(of: "=")
                let name = PercentEncoding.decode(pair[..<(equals ?? pair.endIndex)])
                let value = equals.map { PercentEncoding.decode(pair[pair.index(after: $0)...]) } ?? ""
                add(&query, name, .string(value))
            }
        }
        for item in items { try add(item, read: read) }
        if bodyFile != nil, !fields.isEmpty || !files.isEmpty {
            throw AdHocError(
                form
                    ? "a body from @FILE cannot go with form items (name=value, name@FILE)"
                    : "a body from @FILE cannot go with JSON items (name=value, name:=json)")
        }
        if basic != nil, headers.contains(where: { $0.name.lowercased() == "authorization" }) {
            throw AdHocError("the URL's user:password and an Authorization: item both give credentials; give one")
        }
        nameParams()
    }

    /// `-a` and `-A`, as HTTPie and xh read them: `USER:PASSWORD` for basic, the default, and
    /// a token for bearer. Either is a credential: bound as a secret, saved as a variable.
    public mutating func authorize(_ credentials: String, type: String?) throws(AdHocError) {
        if basic != nil || headers.contains(where: { $0.name.lowercased() == "authorization" }) {
            let other = basic != nil ? "the URL's user:password" : "an Authorization: item"
            throw AdHocError("-a gives credentials, and so does \(other); give one")
        }
        switch type?.lowercased() ?? "basic" {
        case "basic":
            guard let colon = credentials.firstIndex(of: ":") else {
                throw AdHocError("-a USER:PASSWORD: moya-cli asks for no password; give it after a colon")
            }
            basic = (String(credentials[..<colon]), String(credentials[credentials.index(after: colon)...]))
        case "bearer":
            guard !credentials.isEmpty, HTTPHeaders.isValidValue(credentials) else {
                throw AdHocError("-A bearer -a TOKEN: the token is one line of text")
            }
            headers.append((name: "Authorization", value: "Bearer " + credentials))
        default:
            throw AdHocError("-A takes basic or bearer, not '\(type ?? "")'")
        }
    }

    /// `--body`: the whole body, JSON when it reads as JSON, else text; no item may make
    /// another.
    public mutating func setBody(_ data: Data) throws(AdHocError) {
        guard fields.isEmpty, files.isEmpty, bodyFile == nil, !isForm else {
            throw AdHocError(
                "--body gives the whole body, and cannot go with items that make one (name=value, name:=json, "
                    + "name@FILE, @FILE) or --form")
        }
        guard let text = String(validating: data, as: UTF8.self) else {
            throw AdHocError("--body: the body is not UTF-8 text; send a file's bytes with @FILE")
        }
        wholeBody = (try? JSONValue(parsing: data)).map(WholeBody.json) ?? .text(text)
    }

    /// Whether `word` names a method the spec format knows, in any case (`post`, `POST`).
    public static func isMethod(_ word: String) -> Bool {
        Method.allKnown.contains(Method(rawValue: word.uppercased()))
    }

    /// A file a `name=@FILE` item names, as `init` reads it by default.
    public static func read(_ path: String) -> Data? {
        (try? FileSystem.contents(path, limit: FileRoot.readLimit)).map { Data($0) }
    }

    /// The separators of an item, in the order tried where two start at the same place.
    private static let separators = [":=@", ":=", "==", "=@", "=", ":", "@"]

    private mutating func add(_ item: String, read: (String) -> Data?) throws(AdHocError) {
        if item.hasPrefix("@") {
            guard bodyFile == nil else { throw AdHocError("only one @FILE body may be given") }
            let path = String(item.dropFirst())
            guard !path.isEmpty else { throw AdHocError("'@' needs a file's path: @FILE") }
            bodyFile = path
            return
        }
        var found: (range: Range<String.Index>, separator: String)?
        for separator in Self.separators {
            guard let range = Self.unescaped(separator, in: item) else { continue }
            if let earlier = found, earlier.range.lowerBound <= range.lowerBound { continue }
            found = (range, separator)
        }
        if found == nil, item.hasSuffix(";"), item.count > 1, !item.hasSuffix("\\;") {
            found = (item.index(before: item.endIndex)..<item.endIndex, ";")
        }
        guard let found, found.range.lowerBound != item.startIndex else {
            throw AdHocError(
                "unexpected item '\(item)'; request items are Header:value, Header;, name==value, name=value, "
                    + "name:=json and @FILE")
        }
        let name = Self.removingEscapes(item[..<found.range.lowerBound])
        let text = String(item[found.range.upperBound...])
        switch found.separator {
        case ";":
            guard HTTPHeaders.isValidName(name) else { throw AdHocError("'\(name)' is not a valid header name") }
            headers.append((name: name, value: ""))
        case ":":
            guard HTTPHeaders.isValidName(name) else { throw AdHocError("'\(name)' is not a valid header name") }
            guard HTTPHeaders.isValidValue(text) else { throw AdHocError("a header may not contain a line break") }
            headers.append((name: name, value: String(text.drop { $0 == " " || $0 == "\t" })))
        case "==":
            add(&query, name, .string(text))
        case "=":
            add(&fields, name, .string(text))
        case "=@":
            add(&fields, name, .string(try Self.text(of: text, for: item, read: read)))
        case "@":
            guard isForm else { throw AdHocError("'\(item)': a file field (name@FILE) needs --form") }
            guard !text.isEmpty else { throw AdHocError("'\(item)': '@' needs a file's path: name@FILE") }
            files.append((key: name, path: text, param: ""))
        case ":=" where isForm, ":=@" where isForm:
            throw AdHocError("'\(item)': a form's fields are text; name:=json needs a JSON body, without --form")
        case ":=", ":=@":
            let json = found.separator == ":=@" ? try Self.text(of: text, for: item, read: read) : text
            do {
                add(&fields, name, try JSONValue(parsing: Data(json.utf8)))
            } catch {
                throw AdHocError("'\(item)': the value after := is not JSON: \(error)")
            }
        default:
            break
        }
    }

    /// The first `separator` in `item` that no `\` escapes.
    static func unescaped(_ separator: String, in item: String) -> Range<String.Index>? {
        var start = item.startIndex
        while let range = item[start...].firstRange(of: separator) {
            var backslashes = 0
            var index = range.lowerBound
            while index > item.startIndex, item[item.index(before: index)] == "\\" {
                backslashes += 1
                index = item.index(before: index)
            }
            if backslashes % 2 == 0 { return range }
            start = item.index(after: range.lowerBound)
        }
        return nil
    }

    /// A name with its escapes taken out: `\X` is `X`.
    static func removingEscapes(_ name: Substring) -> String {
        var result = ""
        var escaped = false
        for character in name {
            if !escaped, character == "\\" {
                escaped = true
                continue
            }
            escaped = false
            result.append(character)
        }
        return result
    }

    private static func text(of path: String, for item: String, read: (String) -> Data?) throws(AdHocError) -> String {
        guard let data = read(path) else { throw AdHocError("'\(item)': cannot read \(path)") }
        guard let text = String(validating: data, as: UTF8.self) else {
            throw AdHocError("'\(item)': \(path) is not UTF-8 text")
        }
        return text
    }

    /// Adds a value; a name given again makes an array, as a repeated query key does. A value
    /// whose name is a credential's is one, whatever its type.
    private func add(_ values: inout [Value], _ key: String, _ value: JSONValue) {
        let credential = CredentialNames.isCredential(name: key)
        if let index = values.firstIndex(where: { $0.key == key }) {
            values[index].values.append(value)
            values[index].isCredential = values[index].isCredential || credential
        } else {
            values.append(Value(key: key, values: [value], isCredential: credential))
        }
    }

    /// A query item's texts as the values of one typed param: whole numbers as `int` and
    /// `true`/`false` as `bool` where every text reads back exactly so, else strings.
    static func typedQuery(_ values: [JSONValue]) -> [JSONValue] {
        let texts = values.map { value -> String in
            if case .string(let text) = value { return text }
            return value.serialized(escapeSlashes: false)
        }
        let integers = texts.compactMap { text in Int(text).flatMap { String($0) == text ? JSONValue.integer($0) : nil }
        }
        if integers.count == texts.count { return integers }
        if texts.allSatisfy({ $0 == "true" || $0 == "false" }) { return texts.map { .bool($0 == "true") } }
        return texts.map { .string($0) }
    }

    /// Gives each value a param name: its key where that is a valid, unused name, else one
    /// made of its letters and digits.
    private mutating func nameParams() {
        var used: Set<String> = ["file"]
        func name(for key: String) -> String {
            var base = String(
                key.unicodeScalars.map {
                    $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "_" || $0 == "-")
                        ? Character($0) : "_"
                })
            // `user[name]` is `user_name`.
            while base.hasSuffix("_"), base.count > 1 { base.removeLast() }
            if base.isEmpty || !ParamSpec.isValidParamName(base) { base = "p" + base }
            return used.takeUnique(base)
        }
        for index in query.indices {
            query[index].param = name(for: query[index].key)
            if !query[index].isCredential { query[index].values = Self.typedQuery(query[index].values) }
        }
        for index in fields.indices { fields[index].param = name(for: fields[index].key) }
        for index in files.indices { files[index].param = name(for: files[index].key) }
    }

    /// The service a call with no `--save` names the request's: the host's first label that
    /// is a name, past `www` and `api` (`httpbin` for `httpbin.org`), else `url`.
    public var serviceName: String {
        var host = origin.firstRange(of: "://").map { origin[$0.upperBound...] } ?? origin[...]
        if let colon = host.lastIndex(of: ":"), !host.hasSuffix("]") { host = host[..<colon] }
        let labels = host.split(separator: ".").map { $0.lowercased() }
        return labels.first { label in !["www", "api"].contains(label) && ParamSpec.isValidName(label) } ?? "url"
    }

    /// Whether the request has a body.
    public var hasBody: Bool { bodyFile != nil || wholeBody != nil || !fields.isEmpty || !files.isEmpty }
}

/// A request item or URL that cannot be read.
public struct AdHocError: Problem {
    public let message: String
    public var failureKind: FailureKind { .usage }

    init(_ message: String) {
        self.message = message
    }
}
