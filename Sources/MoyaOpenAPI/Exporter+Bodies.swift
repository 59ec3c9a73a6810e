import MoyaHTTP
import MoyaSpec
import MoyaStreams
import OpenAPIKit

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

extension Exporter {
    // MARK: - Request bodies

    /// Each member of a JSON, form or multipart body and the param it sends, in order.
    func bodyMembers(_ target: TargetSpec) -> [(key: String, param: String)] {
        func param(_ value: ValueTemplate) -> String? { Self.param(of: value, in: target)?.name }
        switch target.task {
        case .parameters(let block, let encoding, _) where !Self.inQuery(encoding, target.method):
            return block.entries.compactMap { entry in param(entry.value).map { (entry.key, $0) } }
        case .json(.object(let members), _):
            return members.compactMap { member in param(member.value).map { (member.key, $0) } }
        case .multipart(let parts, _):
            return parts.compactMap { part in
                let template: Template
                switch part.content {
                case .value(let value): template = value
                case .file(let file): template = file
                }
                return template.wholeParam.map { (part.name, $0) }
            }
        default:
            return []
        }
    }

    /// The media type of the body a target sends its members in.
    func bodyType(_ target: TargetSpec) -> String? {
        switch target.task {
        case .parameters(_, let encoding, _) where !Self.inQuery(encoding, target.method):
            encoding.kind == .json || encoding.kind == .prettyJSON
                ? "application/json" : "application/x-www-form-urlencoded"
        case .json: "application/json"
        case .multipart: "multipart/form-data"
        default: nil
        }
    }

    /// The task's body: an object schema of its params for JSON, form and multipart bodies,
    /// the example of a literal one.
    func requestBody(_ target: TargetSpec) -> JSONValue? {
        switch target.task {
        case .plain, .download:
            return nil
        case .parameters(let block, let encoding, _):
            guard !Self.inQuery(encoding, target.method) else { return nil }
            let isJSON = encoding.kind == .json || encoding.kind == .prettyJSON
            var fields = properties(block.entries, target)
            // A form's member with a style says it in the body's `encoding`.
            if !isJSON {
                for entry in block.entries {
                    guard let style = Self.param(of: entry.value, in: target)?.style else { continue }
                    fields.encoding.append(
                        (
                            entry.key,
                            .object([("style", .string(style.style.rawValue)), ("explode", .bool(style.explode))])
                        ))
                }
            }
            return body(isJSON ? "application/json" : "application/x-www-form-urlencoded", fields, target)
        case .json(let value, _):
            if case .object(let members) = value, members.allSatisfy({ Self.param(of: $0.value, in: target) != nil }) {
                return body("application/json", properties(members, target), target)
            }
            return content("application/json", example: Self.render(value))
        case .data(let source, let contentType, _):
            let type = contentType.map { Self.text(of: $0) } ?? "application/octet-stream"
            guard case .text(let template) = source else { return content(type, schema: Self.binary) }
            let text = Self.text(of: template)
            if type.hasSuffix("json"), let value = try? JSONValue(parsing: text) {
                return content(type, example: value)
            }
            return content(type, example: .string(text))
        case .multipart(let parts, _):
            var fields = BodyFields()
            for part in parts {
                let template: Template
                switch part.content {
                case .value(let value): template = value
                case .file(let file): template = file
                }
                guard let name = template.wholeParam, let param = target.param(named: name) else { continue }
                fields.properties.append((part.name, propertySchema(param, of: target, key: part.name)))
                if param.mustBeSent { fields.required.append(.string(part.name)) }
                if let style = param.style {
                    fields.encoding.append(
                        (
                            part.name,
                            .object([("style", .string(style.style.rawValue)), ("explode", .bool(style.explode))])
                        ))
                } else if let type = part.mimeType?.literalText {
                    fields.encoding.append((part.name, .object([("contentType", .string(type))])))
                }
            }
            return body("multipart/form-data", fields, target)
        case .upload(let template, _):
            // The file goes with the target's own Content-Type, when it names one.
            let type =
                target.headers.first { $0.name.lowercased() == "content-type" }?.value.literalText
                ?? "application/octet-stream"
            guard case .object(let members) = content(type, schema: Self.binary),
                template.wholeParam.flatMap(target.param(named:))?.mustBeSent != false
            else { return content(type, schema: Self.binary) }
            return .object([("required", .bool(true))] + members)
        }
    }

    /// A request body or response whose JSON content has `schema` as its schema; a wildcard
    /// (`*/*`) is JSON here, as import reads it.
    func withSchema(_ body: JSONValue, _ schema: JSONValue) -> JSONValue {
        guard case .object(var members) = body, let index = members.firstIndex(where: { $0.key == "content" }),
            case .object(var contents) = members[index].value
        else { return body }
        for (position, content) in contents.enumerated()
        where JSONValue.isJSONMediaType(content.key) || content.key.contains("*") {
            guard case .object(var media) = content.value else { continue }
            media.removeAll { $0.key == "schema" }
            media.insert(("schema", schema), at: 0)
            contents[position].value = .object(media)
        }
        members[index].value = .object(contents)
        return .object(members)
    }

    static let binary = JSONValue.object([("type", .string("string")), ("format", .string("binary"))])

    /// The properties of a parameters block or a JSON object, each a param's schema, and the
    /// required ones.
    func properties(_ entries: [ValueTemplate.Member], _ target: TargetSpec) -> BodyFields {
        var fields = BodyFields()
        for entry in entries {
            guard let param = Self.param(of: entry.value, in: target) else {
                fields.properties.append((entry.key, .object([("default", Self.render(entry.value))])))
                continue
            }
            fields.properties.append((entry.key, propertySchema(param, of: target, key: entry.key)))
            if param.mustBeSent { fields.required.append(.string(entry.key)) }
            if let example = Self.example(of: param, in: target) { fields.example.append((entry.key, example)) }
        }
        return fields
    }

    /// A body's members: their schemas, the required ones, and the example the target's
    /// first check gives them, which import reads back as the check's values.
    struct BodyFields {
        var properties: [(key: String, value: JSONValue)] = []
        var required: [JSONValue] = []
        var example: [(key: String, value: JSONValue)] = []
        /// A multipart part's media type, by part name.
        var encoding: [(key: String, value: JSONValue)] = []
    }

    /// A body param's schema, with its description: a body's members have no other place
    /// for one.
    func propertySchema(_ param: ParamSpec, of target: TargetSpec, key: String) -> JSONValue {
        guard case .object(var members) = schema(param, of: target) else { return schema(param, of: target) }
        if let description = param.description { members.append(("description", .string(description))) }
        if param.name != key { members.append((Self.paramExtension, .string(param.name))) }
        return .object(members)
    }

    static func param(of value: ValueTemplate, in target: TargetSpec) -> ParamSpec? {
        guard case .string(let template) = value, let name = template.wholeParam else { return nil }
        return target.param(named: name)
    }

    func body(_ type: String, _ fields: BodyFields, _ target: TargetSpec) -> JSONValue {
        var schema: [(key: String, value: JSONValue)] = [
            ("type", .string("object")), ("properties", .object(fields.properties)),
        ]
        if !fields.required.isEmpty { schema.append(("required", .array(fields.required))) }
        var members: [(key: String, value: JSONValue)] = []
        if !fields.required.isEmpty { members.append(("required", .bool(true))) }
        var media: [(key: String, value: JSONValue)] = [("schema", .object(schema))]
        if !fields.example.isEmpty { media.append(("example", .object(fields.example))) }
        if !fields.encoding.isEmpty { media.append(("encoding", .object(fields.encoding))) }
        members.append(("content", .object([(type, .object(media))])))
        return .object(members)
    }

    func content(_ type: String, example: JSONValue? = nil, schema: JSONValue? = nil) -> JSONValue {
        var media: [(key: String, value: JSONValue)] = []
        if let schema { media.append(("schema", schema)) }
        if let example { media.append(("example", example)) }
        return .object([("content", .object([(type, .object(media))]))])
    }

    // MARK: - Responses

    /// The samples as responses, grouped by status, the default sample's status first; and
    /// a response for each status a check expects that no sample gives.
    func responses(_ target: TargetSpec) -> JSONValue {
        var groups: [(key: String, status: Int, samples: [(name: String?, headers: [HeaderSpec], body: SampleBody)])] =
            []
        let all = [(nil, target.sample)] + target.samples.map { (Optional($0.name), Optional($0.sample)) }
        for (name, sample) in all {
            guard case .response(let status, let headers, let body)? = sample else { continue }
            let key = ResponseKey.key(ofSample: name, status: status)
            if let index = groups.firstIndex(where: { $0.key == key }) {
                groups[index].samples.append((name, headers, body))
            } else {
                groups.append((key, status, [(name, headers, body)]))
            }
        }
        if target.sample == nil, !groups.contains(where: { $0.key == "200" }) {
            groups.insert(("200", 200, [(nil, [], .empty)]), at: 0)
        }
        var responses: [(key: String, value: JSONValue)] = []
        for group in groups {
            var members: [(key: String, value: JSONValue)] = [("description", .string(Self.reason(group.status)))]
            let bodies = group.samples.filter { if case .empty = $0.body { false } else { true } }
            let base = Importer.statusName(OpenAPI.Response.StatusCode(rawValue: group.key) ?? 200)
            // A redirect's `Location`, as the header's example; never a secret's.
            if (300..<400).contains(group.status),
                let location = group.samples.lazy.flatMap(\.headers).first(where: {
                    $0.name.lowercased() == "location" && !$0.isSecret
                }), let text = location.value.literalText
            {
                let schema: JSONValue = .object([("type", .string("string")), ("example", .string(text))])
                members.append(("headers", .object([("Location", .object([("schema", schema)]))])))
            }
            // The default response of a stream target is the stream's media type, with or
            // without a sample.
            let isDefault = group.status == (target.sample?.status ?? 200)
            let stream = isDefault ? Self.bodyStream(of: target) : nil
            if bodies.isEmpty, let kind = stream, let type = StreamEvent.contentType(of: kind) {
                members.append(("content", .object([(type, .object([]))])))
            }
            if let first = bodies.first {
                let type = contentType(first.headers, first.body, stream: stream)
                var media: [(key: String, value: JSONValue)] = []
                if bodies.count == 1, first.name == nil || first.name == base || first.name == base + "Example" {
                    media.append(("example", example(first.body, as: stream)))
                } else {
                    let examples = bodies.map { sample -> (key: String, value: JSONValue) in
                        let key = exampleName(sample.name, base: base)
                        var members: [(key: String, value: JSONValue)] = [
                            ("value", example(sample.body, as: stream))
                        ]
                        // The sample's name, which import gives back whatever the response
                        // (`missing` for a 404, which it would name `notFoundMissing`).
                        if let name = sample.name { members.append((Self.sampleExtension, .string(name))) }
                        return (key, .object(members))
                    }
                    media.append(("examples", .object(examples)))
                }
                members.append(("content", .object([(type, .object(media))])))
            }
            // The target's schema for its default sample's response; another's, the first
            // schema its samples give. A stream's schema is each event's (3.2's `itemSchema`),
            // but for SSE, where `itemSchema` is the whole event's, not its data's.
            let schema =
                !writesSchemas
                ? nil
                : isDefault
                    ? target.schema
                    : group.samples.lazy.compactMap { $0.name.flatMap { target.sampleSchemas[$0] } }.first
            let response = JSONValue.object(members)
            if let stream {
                let items = stream == .sse ? nil : schema.map { bundle.schema($0) }
                responses.append((group.key, items.map { withItemSchema(response, $0) } ?? response))
                continue
            }
            responses.append((group.key, schema.map { withSchema(response, bundle.schema($0)) } ?? response))
        }
        for check in target.checks {
            for assertion in check.assertions where assertion.subject == .status {
                guard case .equals(.integer(let status)) = assertion.predicate,
                    !responses.contains(where: { $0.key == String(status) })
                else { continue }
                responses.append(
                    (String(status), .object([("description", .string("What check '\(check.name)' expects"))])))
            }
        }
        return .object(responses)
    }

    /// An example's name: `default` for the default sample, and a named sample's name less
    /// the status's, as import adds it back: `notFoundGone` at 404 is `gone`.
    /// The extension that names the sample an example is, where import would name it
    /// otherwise.
    static let sampleExtension = "x-moya-sample"

    func exampleName(_ name: String?, base: String) -> String {
        guard let name else { return "default" }
        guard name.hasPrefix(base), name.count > base.count else { return name }
        let rest = name.dropFirst(base.count)
        return rest.prefix(1).lowercased() + rest.dropFirst()
    }

    /// A sample's media type: its `Content-Type`, else its body's, a stream's kind's for a
    /// `stream` target.
    func contentType(_ headers: [HeaderSpec], _ body: SampleBody, stream: StreamKind? = nil) -> String {
        if let header = headers.first(where: { $0.name.lowercased() == "content-type" }) {
            return Self.text(of: header.value)
        }
        if let type = stream.flatMap(StreamEvent.contentType(of:)) { return type }
        switch body {
        case .json: return "application/json"
        case .file(let path):
            return path.hasSuffix(".json") ? "application/json" : "application/octet-stream"
        case .text, .empty: return "text/plain"
        case .events: return StreamEvent.contentType(of: .sse) ?? "text/event-stream"
        }
    }

    /// A response whose every media type has `schema` as its `itemSchema`: each event's.
    func withItemSchema(_ body: JSONValue, _ schema: JSONValue) -> JSONValue {
        guard case .object(var members) = body, let index = members.firstIndex(where: { $0.key == "content" }),
            case .object(var contents) = members[index].value
        else { return body }
        for position in contents.indices {
            guard case .object(var media) = contents[position].value else { continue }
            media.removeAll { $0.key == "itemSchema" }
            media.insert(("itemSchema", schema), at: 0)
            contents[position].value = .object(media)
        }
        members[index].value = .object(contents)
        return .object(members)
    }

    /// A sample's body as an example: a stream sample's events as a server of `kind` sends them.
    func example(_ body: SampleBody, as kind: StreamKind? = nil) -> JSONValue {
        switch body {
        case .empty: return .string("")
        case .text(let template): return .string(Self.text(of: template))
        case .json(let value): return Self.render(value)
        case .events(let events): return .string(Self.streamText(events, as: kind ?? .sse))
        case .file(let path):
            guard let data = FileManager.default.contents(atPath: path) else { return .string("") }
            return (try? JSONValue(parsing: data)) ?? .string(String(decoding: data, as: UTF8.self))
        }
    }

    /// A stream sample's events as a server of `kind` sends them, each param as `{name}`.
    static func streamText(_ events: [SampleEvent], as kind: StreamKind) -> String {
        let bytes = events.enumerated().flatMap { index, sample -> [UInt8] in
            let data: String =
                switch render(sample.data) {
                case .string(let text): text
                case let value: value.serialized(escapeSlashes: false)
                }
            return StreamEvent(index: index, event: sample.event, id: sample.id, data: data, retry: sample.retry)
                .wire(as: kind)
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// A template's text: a param as `{name}`, a variable as its default.
    static func text(of template: Template) -> String {
        template.segments.map { segment in
            switch segment {
            case .literal(let text): text
            case .param(let name): "{\(name)}"
            case .environment(_, let value), .environmentDefault(_, let value): value
            }
        }.joined()
    }

    /// A JSON template as JSON, each string's params as `{name}`. The depth is the spec's.
    static func render(_ value: ValueTemplate) -> JSONValue {
        switch value {
        case .null: .null
        case .bool(let bool): .bool(bool)
        case .integer(let int): .integer(int)
        case .number(let double): .number(double)
        case .string(let template): .string(text(of: template))
        case .array(let items): .array(items.map(render))
        case .object(let members): .object(members.map { (key: $0.key, value: render($0.value)) })
        }
    }

    /// RFC 9110's reason phrase, as a response's description.
    static func reason(_ status: Int) -> String {
        let phrases = [
            200: "OK", 201: "Created", 202: "Accepted", 204: "No Content", 301: "Moved Permanently", 302: "Found",
            304: "Not Modified", 400: "Bad Request", 401: "Unauthorized", 403: "Forbidden", 404: "Not Found",
            405: "Method Not Allowed", 409: "Conflict", 410: "Gone", 415: "Unsupported Media Type",
            422: "Unprocessable Content", 429: "Too Many Requests", 500: "Internal Server Error", 502: "Bad Gateway",
            503: "Service Unavailable", 504: "Gateway Timeout",
        ]
        return phrases[status] ?? "Status \(status)"
    }
}
