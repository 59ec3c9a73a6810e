import MoyaHTTP
import MoyaSpec
import OpenAPIKit

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// What `moya-cli import openapi` made of a document: the spec's text and a warning for each
/// construct it could not carry.
public struct OpenAPIImport: Sendable {
    /// The service's name.
    public var service: String
    /// The spec, as YAML.
    public var spec: String
    /// One line per construct left out, each with its JSON pointer.
    public var warnings: [String]
    /// One line per choice import made that a reader may want to check, such as the
    /// `paginate:` it gave a target, each with its JSON pointer.
    public var notes: [String] = []
    /// How many operations the document has, and how many targets the spec.
    public var operations = 0
    public var targets = 0
    /// The operations that have no target.
    public var leftOut: Int { max(0, operations - targets) }
    /// Each target's operation, and where its params come from.
    public var imported: [ImportedOperation] = []
}

/// An operation of the document and the target import made of it: the names a workflow's
/// step (`import arazzo`) is written with.
public struct ImportedOperation: Sendable, Hashable {
    /// The path's key and the method, lower case, as the document writes them.
    public var path: String
    public var method: String
    public var operationId: String?
    /// The target's name.
    public var target: String
    /// The spec's param for each of the document's parameters, by `in` and name
    /// (`query:status`, `path:petId`).
    public var params: [String: String] = [:]
    /// The spec's param for each member of a JSON or form body, by the member's key.
    public var bodyMembers: [String: String] = [:]
    /// The body's media type, when the target sends one.
    public var bodyType: String?
    /// Whether the body is the target's example as it stands, with no params to set.
    public var bodyIsFixed = false
    /// The params a call must give: required, with no default.
    public var required: [String] = []
    /// The sample import made of each named example: `missing` is `notFoundMissing`.
    public var samples: [String: String] = [:]

    public init(path: String, method: String, operationId: String? = nil, target: String) {
        self.path = path
        self.method = method
        self.operationId = operationId
        self.target = target
    }

    /// The key `params` is read by.
    public static func key(in location: String, _ name: String) -> String { location + ":" + name }
}

/// Turns an OpenAPI document into a spec (docs/openapi.md has the mapping).
public enum OpenAPIImporter {
    /// Imports the document in `bytes`, read from `file`; `service` names the service, else
    /// the document's title does. With `spec`, the path the spec will be written to, each
    /// target's schema is a `$ref` into the document relative to it (else to the working
    /// directory). With `copy`, the `$ref`s name that copy of the document instead, a path
    /// from the spec's folder.
    public static func importSpec(
        _ bytes: [UInt8], file: String, service: String? = nil, spec: String? = nil, copy: String? = nil,
        readFile: @escaping (String) -> [UInt8]? = { _ in nil }
    ) throws(OpenAPIReadError) -> OpenAPIImport {
        let read = try OpenAPIReader.read(bytes, file: file, readFile: readFile)
        let folder =
            spec.map { path in path.split(separator: "/", omittingEmptySubsequences: false).dropLast() }
            .map { $0.joined(separator: "/") } ?? ""
        let schemas = SchemaSource(
            raw: read.raw, isSwagger2: read.version == "2.0",
            reference: copy ?? Names.relativePath(of: file, from: folder.isEmpty ? "." : folder), version: read.version)
        let outcome: Result<OpenAPIImport, OpenAPIReadError> = JSONBridge.$examples.withValue(read.examples) {
            do throws(OpenAPIReadError) {
                return .success(try importSpec(read, file: file, service: service, schemas: schemas))
            } catch {
                return .failure(error)
            }
        }
        return try outcome.get()
    }

    static func importSpec(_ read: ReadDocument, file: String, service: String?, schemas: SchemaSource)
        throws(OpenAPIReadError)
        -> OpenAPIImport
    {
        let document = read.document
        // What every path shares (the document's security) must resolve; each path's own
        // `$ref`s are resolved as its targets are made.
        var shared = document
        shared.paths = [:]
        do {
            _ = try shared.locallyDereferenced()
        } catch {
            throw OpenAPIReadError(message: "a $ref does not resolve: \(OpenAPIPieces.failure(of: error).message)")
        }
        var importer = Importer(document: document, file: file)
        importer.warnings = read.warnings
        importer.schemas = schemas
        let spec = importer.spec(paths: read.paths, service: service, format: read.format)
        // A Swagger 2.0 document's warnings name its own pointers, not the 3.0 document's.
        let written =
            read.format.hasPrefix("Swagger") ? importer.warnings.map(Swagger2.originalPointers) : importer.warnings
        var imported = OpenAPIImport(service: spec.service, spec: SpecWriter.write(spec), warnings: written)
        imported.notes =
            read.format.hasPrefix("Swagger") ? importer.notes.map(Swagger2.originalPointers) : importer.notes
        imported.operations = Self.operationCount(read.raw)
        imported.targets = spec.targets.count
        imported.imported = spec.targets.map { target in
            var operation = target.operation
            operation.required = target.params.filter { !$0.optional && $0.defaultValue == nil }.map(\.name)
            return operation
        }
        return imported
    }

    /// The operations a document declares under `paths`, as written, Swagger's included.
    static func operationCount(_ raw: JSONValue) -> Int {
        guard case .object(let items)? = raw["paths"] else { return 0 }
        return items.reduce(0) { count, item in
            guard case .object(let members) = item.value else { return count }
            return count + members.filter { OpenAPIPieces.methods.contains($0.key) }.count
        }
    }
}

/// The state of one import: the names given so far and the warnings.
struct Importer {
    let document: OpenAPI.Document
    let file: String
    /// The document as written, whose schemas targets and samples refer to.
    var schemas: SchemaSource?
    var warnings: [String] = []
    var notes: [String] = []
    var serviceName = ""

    init(document: OpenAPI.Document, file: String) {
        self.document = document
        self.file = file
    }

    mutating func warn(_ pointer: [String], _ message: String) {
        warnings.append("\(file)#\(Names.pointer(pointer)): \(message)")
    }

    mutating func note(_ pointer: [String], _ message: String) {
        notes.append("\(file)#\(Names.pointer(pointer)): \(message)")
    }

    // MARK: - Service

    /// The spec. OpenAPIKit's maps come out of its decoding in no fixed order, so every list
    /// is put in one: paths as the document has them, then by method; responses by status;
    /// examples, properties and content types by name.
    mutating func spec(paths: [String], service: String?, format: String) -> ImportedSpec {
        // A short name, from the title's first words, else the first server's host, else the file.
        let host = document.servers.first.flatMap { server in
            server.urlTemplate.rawValue.split(separator: "/").dropFirst().first.map {
                String($0.split(separator: ":").first ?? $0)
            }
        }
        serviceName =
            service ?? Names.service(title: document.info.title) ?? host.flatMap(Names.service(host:))
            ?? Names.lowerCamel(Names.stem(of: file), fallback: "service")
        var spec = ImportedSpec(service: serviceName, baseURL: "")
        // Document text in the comment is written as scalars are, so no line break ends it.
        let (title, release) = (YAMLText.quoted(document.info.title), SpecWriter.commentText(document.info.version))
        spec.comment = [
            "Imported from \(SpecWriter.commentText(Names.fileName(of: file))) (\(SpecWriter.commentText(format)): "
                + "\(title) \(release)) by moya-cli import openapi."
        ]
        servers(document.servers, into: &spec)

        let methods = ["GET", "PUT", "POST", "DELETE", "OPTIONS", "HEAD", "PATCH", "TRACE", "QUERY"]
        var pathOrder: [String: Int] = [:]
        for (index, path) in paths.enumerated() where pathOrder[path] == nil { pathOrder[path] = index }
        let ordered = document.paths.keys.sorted { a, b in
            let (orderA, orderB) = (pathOrder[a.rawValue] ?? .max, pathOrder[b.rawValue] ?? .max)
            return orderA != orderB ? orderA < orderB : a.rawValue < b.rawValue
        }
        var names: Set<String> = []
        var made: [(target: ImportedSpec.Target, auth: ImportedSpec.Auth?)] = []
        for path in ordered {
            // One path at a time: its schemas are expanded in place only while its targets are
            // made, so a large document's expanded copy is never whole at once.
            let endpoints = self.endpoints(at: path).sorted { a, b in
                let methodA = methods.firstIndex(of: a.method.rawValue.uppercased()) ?? .max
                let methodB = methods.firstIndex(of: b.method.rawValue.uppercased()) ?? .max
                return methodA != methodB ? methodA < methodB : a.method.rawValue < b.method.rawValue
            }
            for endpoint in endpoints {
                // A method a spec cannot send (one outside IANA's registry, from 3.2's
                // `additionalOperations`) has no target to be; a registered one (`COPY`) does.
                guard Method(rawValue: endpoint.method.rawValue.uppercased()).isSendable else {
                    warn(
                        ["paths", endpoint.path.rawValue, "additionalOperations", endpoint.method.rawValue],
                        "the method \(endpoint.method.rawValue) is not in IANA's HTTP Method Registry, which a spec's "
                            + "methods are; the operation is left out")
                    continue
                }
                var target = self.target(endpoint, names: &names)
                let access = credentials(for: endpoint)
                target.headers += access.headers
                target.cookies += access.cookies
                add(access.query, to: &target, at: endpoint)
                made.append((target, access.auth))
            }
        }
        // The scheme most targets use becomes the service's auth, the first one on a tie; the
        // others say their own.
        var counts: [(auth: ImportedSpec.Auth, count: Int)] = []
        for auth in made.compactMap(\.auth) {
            if let index = counts.firstIndex(where: { $0.auth == auth }) {
                counts[index].count += 1
            } else {
                counts.append((auth, 1))
            }
        }
        let common = counts.enumerated().max { a, b in
            a.element.count != b.element.count ? a.element.count < b.element.count : a.offset > b.offset
        }?.element.auth
        spec.auth = common
        for (target, auth) in made {
            var target = target
            if auth != common { target.auth = auth ?? .disabled }
            spec.targets.append(target)
        }
        for item in document.paths.sorted(by: { $0.key.rawValue < $1.key.rawValue }) {
            guard case .b(let pathItem) = item.value else { continue }
            for endpoint in pathItem.endpoints where !endpoint.operation.callbacks.isEmpty {
                for name in endpoint.operation.callbacks.keys.sorted() {
                    warn(
                        ["paths", item.key.rawValue, endpoint.method.rawValue.lowercased(), "callbacks", name],
                        "callback '\(name)' has no place in a spec; left out")
                }
            }
        }
        for name in document.webhooks.keys.sorted() {
            warn(["webhooks", name], "webhook '\(name)' has no place in a spec; left out")
        }
        // One line per construct, however many operations share it.
        var seen: Set<String> = []
        warnings = warnings.filter { seen.insert($0).inserted }
        return spec
    }

    /// The endpoints at `path`, each `$ref` resolved. An operation whose references do not
    /// resolve is left out, with a warning, not the path or the document.
    mutating func endpoints(at path: OpenAPI.Path) -> [ResolvedEndpoint] {
        guard let item = document.paths[path] else { return [] }
        var one = document
        one.paths = [path: item]
        if let resolved = try? one.locallyDereferenced().resolved() { return resolved.endpoints }
        guard case .b(var pathItem) = item else { return [] }
        for endpoint in pathItem.endpoints {
            do {
                _ = try endpoint.operation.dereferenced(in: document.components)
            } catch {
                warn(
                    ["paths", path.rawValue, endpoint.method.rawValue.lowercased()],
                    "\(OpenAPIPieces.failure(of: error).message); the operation is left out")
                pathItem.set(operation: nil, for: endpoint.method)
            }
        }
        one.paths = [path: .b(pathItem)]
        do {
            return try one.locallyDereferenced().resolved().endpoints
        } catch {
            // What the path's operations share (its parameters) does not resolve.
            warn(
                ["paths", path.rawValue],
                "\(OpenAPIPieces.failure(of: error).message); the operations at this path are left out")
            return []
        }
    }

    /// A key the credentials send in the query, added to the target's task.
    mutating func add(
        _ query: [ImportedSpec.Entry], to target: inout ImportedSpec.Target, at endpoint: ResolvedEndpoint
    ) {
        switch target.task {
        case .parameters(let entries, let encoding, let extra)?:
            // A query-string task is its query: the key joins its entries.
            target.task =
                encoding == "queryString"
                ? .parameters(entries + query, encoding: encoding, query: extra)
                : .parameters(entries, encoding: encoding, query: extra + query)
        case .data(let text, let contentType, let extra)?:
            target.task = .data(text, contentType: contentType, query: extra + query)
        case .multipart(let parts, let extra)?:
            target.task = .multipart(parts, query: extra + query)
        case .upload(let file, let contentType, let extra)?:
            target.task = .upload(file, contentType: contentType, query: extra + query)
        case .text(let body, let contentType, let extra)?:
            target.task = .text(body, contentType: contentType, query: extra + query)
        case .json(let body, let extra)?:
            target.task = .json(body, query: extra + query)
        case nil:
            if !query.isEmpty { target.task = .parameters(query, encoding: "queryString", query: []) }
        }
    }

    /// The first server is the base URL; the others are environments. Server variables are
    /// `${SERVICE_NAME:-default}`; everything else the URL holds is data, never expanded.
    mutating func servers(_ servers: [OpenAPI.Server], into spec: inout ImportedSpec) {
        let local = "http://127.0.0.1:4010"
        guard !servers.isEmpty else {
            warn(["servers"], "no servers; the base URL is \(local), where moya-cli serve listens")
            spec.baseURL = .environment(Names.environment(serviceName, "URL"), or: local)
            return
        }
        var used: Set<String> = []
        for (index, server) in servers.enumerated() {
            var url = url(of: server)
            let raw = server.urlTemplate.rawValue
            if !raw.contains("://") {
                warn(
                    ["servers", String(index), "url"],
                    "'\(raw)' is relative; it is taken from \(local), where moya-cli serve listens")
                url = ImportedSpec.Text(stringLiteral: local + (raw.hasPrefix("/") ? "" : "/")) + url
            }
            // What the compiler refuses as a base URL is left out here, not written.
            if let problem = Self.urlProblem(url) {
                warn(
                    ["servers", String(index), "url"],
                    "'\(raw)' \(problem); "
                        + (index == 0 ? "the base URL is \(local), where moya-cli serve listens" : "left out"))
                if index == 0 {
                    spec.baseURL = .environment(Names.environment(serviceName, "URL"), or: local)
                }
                continue
            }
            if index == 0 {
                spec.baseURL = Self.baseURL(url, variable: Names.environment(serviceName, "URL"))
            } else {
                url = Self.baseURL(url, variable: nil)
                var name = Names.lowerCamel(server.description ?? "", fallback: "server\(index + 1)")
                while used.contains(name) { name += "\(index + 1)" }
                used.insert(name)
                spec.environments.append((name, url))
            }
        }
    }

    /// Why the URL import writes for a server (its variables at their defaults) could not be a
    /// spec's base URL, by the compiler's rule: an http or https URL with a host and a port in
    /// range. Nil when it can be.
    static func urlProblem(_ url: ImportedSpec.Text) -> String? {
        let text = url.pieces.map { piece in
            switch piece {
            case .data(let data): data
            case .environment(_, let fallback): fallback ?? ""
            }
        }.joined()
        if let port = portPastRange(text) { return "has port \(port), past 65535" }
        guard let parsed = URL(string: text), let scheme = parsed.scheme?.lowercased(),
            scheme == "http" || scheme == "https"
        else { return "is not an http or https URL" }
        guard let host = parsed.host, !host.isEmpty else { return "has no host" }
        if let port = parsed.port, !(1...65_535).contains(port) { return "has port \(port), which no URL may have" }
        return nil
    }

    /// The port of an absolute URL's authority when it is past 65535, which no URL may have.
    static func portPastRange(_ url: String) -> Int? {
        guard let scheme = url.firstRange(of: "://") else { return nil }
        let authority = url[scheme.upperBound...].prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        guard let colon = authority.lastIndex(of: ":"), !authority[colon...].contains("]") else { return nil }
        let digits = authority[authority.index(after: colon)...]
        guard !digits.isEmpty, digits.allSatisfy(\.isASCII), digits.allSatisfy(\.isNumber) else { return nil }
        guard let port = Int(digits.prefix(9)), port > 65535 else { return nil }
        return port
    }

    /// A server's URL as a base URL: without its trailing `/`, and, when `variable` is given
    /// and the URL has no server variables, read from that variable when it is set.
    static func baseURL(_ url: ImportedSpec.Text, variable: String?) -> ImportedSpec.Text {
        var url = url
        if case .data(let last)? = url.pieces.last, last.hasSuffix("/") {
            url.pieces[url.pieces.count - 1] = .data(String(last.dropLast()))
        }
        let text = url.pieces.map { if case .data(let text) = $0 { text } else { "" } }.joined()
        let plain = url.pieces.allSatisfy { if case .data = $0 { true } else { false } }
        guard let variable, plain, !text.contains("}") else { return url }
        return .environment(variable, or: text)
    }

    /// A server's URL with each `{variable}` as an environment reference whose default is the
    /// variable's. What a URL cannot hold raw is percent-encoded, braces and `$` among them,
    /// so no default ends its reference early and no text reads as another.
    func url(of server: OpenAPI.Server) -> ImportedSpec.Text {
        var pieces: [ImportedSpec.Text.Piece] = []
        var rest = Substring(server.urlTemplate.rawValue)
        while let open = rest.firstIndex(of: "{"), let close = rest[open...].firstIndex(of: "}") {
            let name = String(rest[rest.index(after: open)..<close])
            guard let variable = server.variables[name] else {
                pieces.append(.data(Names.urlText(rest[...close])))
                rest = rest[rest.index(after: close)...]
                continue
            }
            pieces.append(.data(Names.urlText(rest[..<open])))
            pieces.append(
                .environment(name: Names.environment(serviceName, name), fallback: Names.urlText(variable.default[...]))
            )
            rest = rest[rest.index(after: close)...]
        }
        pieces.append(.data(Names.urlText(rest)))
        return ImportedSpec.Text(pieces.filter { $0 != .data("") })
    }

    // MARK: - Credentials

    /// How an endpoint's first security requirement sends its credentials.
    mutating func credentials(for endpoint: ResolvedEndpoint) -> (
        auth: ImportedSpec.Auth?, headers: [ImportedSpec.Entry], query: [ImportedSpec.Entry],
        cookies: [ImportedSpec.Entry]
    ) {
        guard let requirement = endpoint.security.first else { return (nil, [], [], []) }
        var auth: ImportedSpec.Auth?
        var headers: [ImportedSpec.Entry] = []
        var query: [ImportedSpec.Entry] = []
        var cookies: [ImportedSpec.Entry] = []
        let pointer = ["components", "securitySchemes"]
        for (name, scoped) in requirement.schemes.sorted(by: { $0.key < $1.key }) {
            let variable = Names.environment(serviceName, name)
            switch scoped.securityScheme.type {
            case .http(let scheme, _) where scheme.lowercased() == "bearer":
                auth = auth ?? .bearer(.environment(variable + "_TOKEN"))
            case .http(let scheme, _) where scheme.lowercased() == "basic":
                auth =
                    auth
                    ?? .basic(user: .environment(variable + "_USER"), password: .environment(variable + "_PASSWORD"))
            case .http(let scheme, _):
                warn(pointer + [name], "HTTP scheme '\(scheme)' has no place in a spec; left out")
            case .apiKey(let key, let location):
                switch location {
                case .header where !HTTPHeaders.isValidName(key):
                    // Found by the openapi fuzz target: a name no header can have.
                    warn(pointer + [name], "header '\(key)' is a name a header cannot have; left out")
                case .header: headers.append(.init(key: key, value: .environment(variable)))
                case .query: query.append(.init(key: key, value: .environment(variable)))
                case .cookie where HTTPHeaders.isValidName(key):
                    cookies.append(.init(key: key, value: .environment(variable)))
                case .cookie:
                    warn(pointer + [name], "'\(key)' is not a name a cookie can have; left out")
                }
            case .oauth2, .openIdConnect:
                auth = auth ?? .bearer(.environment(variable + "_TOKEN"))
                warn(
                    pointer + [name],
                    "OAuth flows have no place in a spec; the token is read from \(variable)_TOKEN as a bearer token")
            case .mutualTLS:
                warn(pointer + [name], "mutual TLS is set with --cert and --key, not in a spec")
            }
        }
        return (auth, headers, query, cookies)
    }
}
