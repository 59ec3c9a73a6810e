import MoyaHTTP
import MoyaSpec

/// `moya-cli export postman`: a service as a Postman v2.1 collection (docs/export-collections.md).
/// Each target is a request named as the target, so that `import postman` gives the same names;
/// a path param that is a whole segment is Postman's `:name` path variable, with its default
/// as the variable's value; a param elsewhere in the URL is `{{name}}`, its default in the
/// request's `url.variable`, where `import postman` reads it back; `${VAR}`s are collection
/// variables, a credential's empty (the schema has no secret type for them). Samples are saved responses.
public enum PostmanExporter {
    /// The collection's JSON text, each environment as a Postman environment file's text
    /// (`--env NAME`'s values, and each credential an empty secret to set), and what they do
    /// not carry.
    public static func export(_ service: ServiceSpec) -> (
        text: String, environments: [(name: String, text: String)], notes: [String]
    ) {
        let export = CollectionExport(service)
        var members: [(key: String, value: JSONValue)] = [
            (
                "info",
                .object([
                    ("name", .string(export.service)),
                    ("description", .string("Exported by moya-cli export postman from \(export.file).")),
                    ("schema", .string("https://schema.getpostman.com/json/collection/v2.1.0/collection.json")),
                ])
            ),
            ("item", .array(export.requests.map { item($0, collectionAuth: export.auth) })),
        ]
        if let auth = export.auth { members.append(("auth", Self.auth(auth))) }
        var variables: [JSONValue] = []
        var defined: Set<String> = []
        for variable in export.variables {
            if variable.isCredential {
                // Empty: the schema has no secret type for a collection's variables.
                var credential = Self.variable(variable.name, "", type: "string")
                if case .object(var members) = credential {
                    members.append(
                        ("description", .string("A credential: set it in a Postman environment, as a secret.")))
                    credential = .object(members)
                }
                variables.append(credential)
            } else if let value = variable.value {
                variables.append(Self.variable(variable.name, value, type: "string"))
            } else {
                continue
            }
            defined.insert(variable.name)
        }
        // A param in a header or a body: a collection variable with its default (the first).
        for request in export.requests {
            for (name, value) in request.otherDefaults where defined.insert(name).inserted {
                variables.append(Self.variable(name, value, type: "string"))
            }
        }
        if !variables.isEmpty { members.append(("variable", .array(variables))) }
        let credentials = export.variables.filter(\.isCredential).map(\.name)
        let environments = export.environments.map { environment in
            let values: [JSONValue] =
                environment.values.map {
                    .object([
                        ("key", .string($0.name)), ("value", .string($0.value)), ("type", .string("default")),
                        ("enabled", .bool(true)),
                    ])
                }
                + credentials.map {
                    .object([
                        ("key", .string($0)), ("value", .string("")), ("type", .string("secret")),
                        ("enabled", .bool(true)),
                    ])
                }
            let file: JSONValue = .object([
                ("name", .string(environment.name)), ("values", .array(values)),
                ("_postman_variable_scope", .string("environment")),
            ])
            return (environment.name, file.serialized(pretty: true, escapeSlashes: false) + "\n")
        }
        return (
            JSONValue.object(members).serialized(pretty: true, escapeSlashes: false) + "\n", environments,
            export.notes
        )
    }

    static func variable(_ key: String, _ value: String, type: String) -> JSONValue {
        .object([("key", .string(key)), ("value", .string(value)), ("type", .string(type))])
    }

    static func text(_ text: CollectionExport.Text) -> JSONValue { .string(CollectionExport.placeholders(text)) }

    static func auth(_ auth: CollectionExport.Auth) -> JSONValue {
        func attribute(_ key: String, _ value: CollectionExport.Text) -> JSONValue {
            .object([("key", .string(key)), ("value", text(value)), ("type", .string("string"))])
        }
        switch auth {
        case .none: return .object([("type", .string("noauth"))])
        case .bearer(let token):
            return .object([("type", .string("bearer")), ("bearer", .array([attribute("token", token)]))])
        case .basic(let user, let password):
            return .object([
                ("type", .string("basic")),
                ("basic", .array([attribute("username", user), attribute("password", password)])),
            ])
        }
    }

    static func item(_ request: CollectionExport.Request, collectionAuth: CollectionExport.Auth?) -> JSONValue {
        var request = request
        // A query value that is one variable is an API key: Postman's apikey auth, where
        // import reads it as one, when no other auth stands in its way.
        var apiKey: JSONValue?
        if request.auth == nil, collectionAuth == nil,
            let index = request.query.firstIndex(where: { entry in
                guard entry.value.count == 1, case .variable(let name) = entry.value[0] else { return false }
                return !request.params.contains(name)
            })
        {
            let entry = request.query.remove(at: index)
            func attribute(_ key: String, _ value: String) -> JSONValue {
                .object([("key", .string(key)), ("value", .string(value)), ("type", .string("string"))])
            }
            apiKey = .object([
                ("type", .string("apikey")),
                (
                    "apikey",
                    .array([
                        attribute("key", entry.key), attribute("value", CollectionExport.placeholders(entry.value)),
                        attribute("in", "query"),
                    ])
                ),
            ])
        }
        var fields: [(key: String, value: JSONValue)] = [("method", .string(request.method))]
        fields.append(
            ("header", .array(request.headers.map { .object([("key", .string($0.key)), ("value", text($0.value))]) })))
        if let body = body(request.body) { fields.append(("body", body)) }
        fields.append(("url", url(request)))
        if let auth = request.auth { fields.append(("auth", Self.auth(auth))) }
        if let apiKey { fields.append(("auth", apiKey)) }
        if let description = request.description { fields.append(("description", .string(description))) }
        var item: [(key: String, value: JSONValue)] = [("name", .string(request.name))]
        if let summary = request.summary { item.append(("x-moya-summary", .string(summary))) }
        if !request.declarations.isEmpty { item.append(("x-moya-params", .object(request.declarations))) }
        item.append(("request", .object(fields)))
        item.append(("response", .array(request.samples.map(response))))
        var behavior: [(key: String, value: JSONValue)] = []
        if ["GET", "HEAD"].contains(request.method), case .none = request.body {
        } else if ["GET", "HEAD"].contains(request.method) {
            behavior.append(("disableBodyPruning", .bool(true)))
        }
        if request.followsRedirects == false { behavior.append(("followRedirects", .bool(false))) }
        if !behavior.isEmpty { item.append(("protocolProfileBehavior", .object(behavior))) }
        return .object(item)
    }

    static func body(_ body: CollectionExport.Body) -> JSONValue? {
        switch body {
        case .none: return nil
        case .raw(let raw, let language):
            return .object([
                ("mode", .string("raw")), ("raw", text(raw)),
                ("options", .object([("raw", .object([("language", .string(language))]))])),
            ])
        case .form(let entries):
            return .object([
                ("mode", .string("urlencoded")),
                (
                    "urlencoded",
                    .array(
                        entries.map {
                            .object([("key", .string($0.key)), ("value", text($0.value)), ("type", .string("text"))])
                        })
                ),
            ])
        case .multipart(let parts):
            return .object([
                ("mode", .string("formdata")),
                (
                    "formdata",
                    .array(
                        parts.map { part in
                            var fields: [(key: String, value: JSONValue)] = [("key", .string(part.key))]
                            if part.isFile {
                                fields += [("type", .string("file")), ("src", text(part.value))]
                            } else {
                                fields += [("value", text(part.value)), ("type", .string("text"))]
                            }
                            if let type = part.contentType { fields.append(("contentType", text(type))) }
                            return .object(fields)
                        })
                ),
            ])
        case .file(let path):
            return .object([("mode", .string("file")), ("file", .object([("src", text(path))]))])
        }
    }

    /// The URL object: `raw`, and its parts as Postman splits them.
    static func url(_ request: CollectionExport.Request) -> JSONValue {
        // A segment that is one param is a `:name` path variable.
        let segments: [String] = request.path.map { segment in
            if segment.count == 1, case .variable(let name) = segment[0], request.params.contains(name) {
                return ":" + name
            }
            return segment.map { piece in
                switch piece {
                case .text(let text): PercentEncoding.encode(text, keeping: isPathByte)
                case .variable(let name): "{{\(name)}}"
                }
            }.joined()
        }
        let base = CollectionExport.placeholders(request.base)
        var raw = base + "/" + segments.joined(separator: "/")
        let query = request.query.map { (key: $0.key, value: CollectionExport.placeholders($0.value)) }
        if !query.isEmpty {
            raw +=
                "?"
                + query.map {
                    PercentEncoding.encode($0.key, keeping: isQueryByte) + "="
                        + PercentEncoding.encode($0.value, keeping: isQueryByte)
                }.joined(separator: "&")
        }
        var fields: [(key: String, value: JSONValue)] = [("raw", .string(raw))]
        var host = Substring(base)
        if let scheme = host.range(of: "://") {
            fields.append(("protocol", .string(String(host[..<scheme.lowerBound]))))
            host = host[scheme.upperBound...]
        }
        var port: Substring?
        if let colon = host.lastIndex(of: ":"), !host[colon...].contains("}") {
            port = host[host.index(after: colon)...]
            host = host[..<colon]
        }
        fields.append(("host", .array(host.split(separator: ".").map { .string(String($0)) })))
        if let port { fields.append(("port", .string(String(port)))) }
        fields.append(("path", .array(segments.map(JSONValue.string))))
        if !query.isEmpty {
            fields.append(
                ("query", .array(query.map { .object([("key", .string($0.key)), ("value", .string($0.value))]) })))
        }
        if !request.urlDefaults.isEmpty {
            fields.append(
                (
                    "variable",
                    .array(
                        request.urlDefaults.map { .object([("key", .string($0.name)), ("value", .string($0.value))]) })
                ))
        }
        return .object(fields)
    }

    /// A path's literal bytes kept in `raw`: RFC 3986's pchar less `%`, and `{}` of the placeholders.
    static func isPathByte(_ byte: UInt8) -> Bool {
        PercentEncoding.isUnreserved(byte) || Array("!$&'()*+,;=:@{}".utf8).contains(byte)
    }

    /// A query's bytes kept in `raw`: RFC 3986's query characters less `&`, `=`, `+`, `#`, `%`.
    static func isQueryByte(_ byte: UInt8) -> Bool {
        PercentEncoding.isUnreserved(byte) || Array("!$'()*,;:@/?{}".utf8).contains(byte)
    }

    /// A sample as a saved response.
    static func response(_ sample: CollectionExport.Sample) -> JSONValue {
        var headers: [JSONValue] = []
        if let type = sample.contentType {
            headers.append(.object([("key", .string("Content-Type")), ("value", .string(type))]))
        }
        var members: [(key: String, value: JSONValue)] = [
            ("name", .string(sample.name)), ("status", .string(Exporter.reason(sample.status))),
            ("code", .integer(sample.status)), ("header", .array(headers)), ("body", .string(sample.body)),
        ]
        if sample.isDefault { members.append(("x-moya-default", .bool(true))) }
        return .object(members)
    }
}
