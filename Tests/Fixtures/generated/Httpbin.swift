// Generated from httpbin.yaml by `moya-cli generate swift httpbin --access public`.
// Change the spec and generate again rather than editing this file.

import Moya

/// The httpbin service, from httpbin.yaml.
public enum Httpbin: Sendable {
    /// Echo a GET with its query
    case get(q: String? = nil, tags: [String]? = nil, fields: [String]? = nil)

    /// Echo a JSON POST
    case post(name: String, age: Int? = nil)

    /// Echo a form POST
    case form(name: String, admin: Bool = false)

    /// Post a file as a multipart form
    case upload(file: URL, note: String = "")

    /// Answer with the given status
    case status(code: Int)

    /// Answer after a delay in seconds
    case delay(seconds: Double = 1.0)

    /// Needs a bearer token
    case bearer(token: String)

    /// Download random bytes to a file
    case download(bytes: Int = 1024, to: String = "bytes.bin")
}

extension Httpbin: TargetType {
    public var baseURL: URL {
        URL(string: Self.environment("HTTPBIN_URL", or: "http://127.0.0.1:8080")) ?? URL(fileURLWithPath: "/")
    }

    public var path: String {
        switch self {
        case .get:
            return "/get"
        case .post, .form, .upload:
            return "/post"
        case .status(let code):
            return "/status/\(Self.pathSegment(String(code)))"
        case .delay(let seconds):
            return "/delay/\(Self.pathSegment(JSONValue.format(seconds)))"
        case .bearer:
            return "/bearer"
        case .download(let bytes, _):
            return "/bytes/\(Self.pathSegment(String(bytes)))"
        }
    }

    public var method: Moya.Method {
        switch self {
        case .get, .status, .delay, .bearer, .download:
            return .get
        case .post, .form, .upload:
            return .post
        }
    }

    public var task: Task {
        switch self {
        case .get(let q, let tags, let fields):
            return .requestParameters(
                parameters: Self.parameters([
                    ("q", q.map { value -> JSONValue in .string(value) }),
                    ("tags", tags.map { value -> JSONValue in .array(value.map { .string($0) }) }),
                    (
                        "fields",
                        Self.joined(
                            fields.map { value -> JSONValue in .array(value.map { .string($0) }) },
                            separator: ",")
                    ),
                ]),
                encoding: URLEncoding.default)
        case .post(let name, let age):
            return .requestJSONEncodable(
                JSONValue.object(
                    Self.present([
                        ("name", .string(name)),
                        ("age", age.map { value -> JSONValue in .integer(value) }),
                    ])))
        case .form(let name, let admin):
            return .requestParameters(
                parameters: Self.parameters([("name", .string(name)), ("admin", .bool(admin))]),
                encoding: URLEncoding.httpBody)
        case .upload(let file, let note):
            return .uploadMultipartFormData(
                MultipartFormData(
                    parts: Self.present([
                        Self.part(note, name: "note"),
                        Self.part(file: file, name: "file", mimeType: "application/octet-stream"),
                    ])))
        case .status, .delay, .bearer:
            return .requestPlain
        case .download(_, let to):
            return .downloadDestination({ _, _ in (URL(fileURLWithPath: to), [.removePreviousFile]) })
        }
    }

    public var headers: [String: String]? {
        var headers: [String: String] = [:]
        switch self {
        case .get, .post, .form, .upload, .status, .delay, .download:
            headers["Accept"] = "application/json"
        case .bearer(let token):
            headers["Accept"] = "application/json"
            headers["Authorization"] = "Bearer \(token)"
        }
        return headers.isEmpty ? nil : headers
    }

    public var validationType: ValidationType { .successCodes }

    public var sampleData: Data {
        switch self {
        case .get(let q, _, _):
            return Self.data(
                JSONValue.object([
                    (
                        key: "args",
                        value: .object(Self.present([("q", q.map { value -> JSONValue in .string(value) })]))
                    ),
                    (key: "url", value: .string("http://127.0.0.1:8080/get")),
                ]))
        case .post(let name, _):
            return Self.data(JSONValue.object([(key: "json", value: .object([(key: "name", value: .string(name))]))]))
        case .form, .upload, .delay, .bearer, .download:
            return Data()
        case .status:
            return Data("I'm a teapot".utf8)
        }
    }
}

extension Httpbin {
    /// An environment variable's value when the code runs, or the spec's default.
    public static func environment(_ name: String, or fallback: String) -> String {
        ProcessInfo.processInfo.environment[name] ?? fallback
    }

    /// A value as one path segment: all but unreserved characters percent-encoded, and dots
    /// too when it is only dots, so that it can neither add a segment nor climb out of one.
    static func pathSegment(_ value: String) -> String {
        let unreserved = CharacterSet(
            charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~")
        if !value.isEmpty, value.allSatisfy({ $0 == "." }) {
            return String(repeating: "%2E", count: value.count)
        }
        return value.addingPercentEncoding(withAllowedCharacters: unreserved) ?? value
    }

    /// The values that are there, in order.
    static func present<Value>(_ values: [Value?]) -> [Value] {
        values.compactMap { $0 }
    }

    /// Object members whose values are there, in order.
    static func present(_ members: [(String, JSONValue?)]) -> [(key: String, value: JSONValue)] {
        members.compactMap { key, value in value.map { (key: key, value: $0) } }
    }

    /// Parameters whose values are there; `gathering` collects a repeated key's values.
    static func parameters(_ entries: [(String, JSONValue?)], gathering: Bool = false) -> [String: Any] {
        var parameters: [String: Any] = [:]
        for case let (key, value?) in entries {
            guard gathering, let existing = parameters[key] else {
                parameters[key] = value.parameterValue
                continue
            }
            let added: [Any]
            if case .array(let values) = value {
                added = values.map(\.parameterValue)
            } else {
                added = [value.parameterValue]
            }
            parameters[key] = ((existing as? [Any]) ?? [existing]) + added
        }
        return parameters
    }

    /// An array sent as one value, its items joined, as OpenAPI's `explode: false` writes it.
    static func joined(_ value: JSONValue?, separator: String) -> JSONValue? {
        guard case .array(let items)? = value else { return value }
        return .string(
            items.map { item -> String in
                if case .string(let text) = item { return text }
                return item.serialized(escapeSlashes: false)
            }.joined(separator: separator))
    }

    /// A JSON sample's bytes, as moya-cli writes them.
    static func data(_ json: JSONValue) -> Data {
        Data(json.serialized(escapeSlashes: false).utf8)
    }

    /// A multipart part with text, or nil when there is none.
    static func part(
        _ text: String?, name: String, fileName: String? = nil, mimeType: String? = nil
    ) -> MultipartFormBodyPart? {
        text.map {
            MultipartFormBodyPart(provider: .data(Data($0.utf8)), name: name, fileName: fileName, mimeType: mimeType)
        }
    }

    /// A multipart part with a file's contents, or nil when there is no file.
    static func part(
        file: URL?, name: String, fileName: String? = nil, mimeType: String? = nil
    ) -> MultipartFormBodyPart? {
        file.map {
            MultipartFormBodyPart(provider: .file($0), name: name, fileName: fileName, mimeType: mimeType)
        }
    }
}
