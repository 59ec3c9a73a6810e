import MoyaHTTP

/// The fields OpenAPI defines for each object import walks, across 3.0, 3.1 and 3.2. A field
/// that is neither one of them nor an `x-` extension is left out before OpenAPIKit decodes
/// the document, which decodes no extensions and would not say.
extension OpenAPIPieces {
    /// The fixed fields of `kind`; nil where any name is allowed (a schema's keywords, a
    /// callback's expressions, the components' maps).
    static func fields(of kind: DocumentRepair.Kind) -> Set<String>? {
        switch kind {
        case .document:
            [
                "openapi", "$self", "info", "jsonSchemaDialect", "servers", "paths", "webhooks", "components",
                "security",
                "tags", "externalDocs",
            ]
        case .info: ["title", "summary", "description", "termsOfService", "contact", "license", "version"]
        case .contact: ["name", "url", "email"]
        case .license: ["name", "identifier", "url"]
        case .pathItem:
            [
                "$ref", "summary", "description", "get", "put", "post", "delete", "options", "head", "patch", "trace",
                "query", "additionalOperations", "servers", "parameters",
            ]
        case .operation:
            [
                "tags", "summary", "description", "externalDocs", "operationId", "parameters", "requestBody",
                "responses", "callbacks", "deprecated", "security", "servers",
            ]
        case .parameter, .header:
            [
                "name", "in", "description", "required", "deprecated", "allowEmptyValue", "style", "explode",
                "allowReserved", "schema", "example", "examples", "content",
            ]
        case .requestBody: ["description", "content", "required"]
        case .mediaType:
            ["schema", "itemSchema", "example", "examples", "encoding", "prefixEncoding", "itemEncoding"]
        case .encoding:
            [
                "contentType", "headers", "style", "explode", "allowReserved", "encoding", "prefixEncoding",
                "itemEncoding",
            ]
        case .response: ["summary", "description", "headers", "content", "links"]
        case .link: ["operationRef", "operationId", "parameters", "requestBody", "description", "server"]
        case .example: ["summary", "description", "value", "externalValue", "dataValue", "serializedValue"]
        case .securityScheme:
            [
                "type", "description", "name", "in", "scheme", "bearerFormat", "flows", "openIdConnectUrl",
                "oauth2MetadataUrl", "deprecated",
            ]
        case .components, .callback, .schema: nil
        }
    }

    /// Leaves out each field of `value` (an object of `kind`) and of what it holds that is
    /// neither OpenAPI's nor an extension, calling `found` with its pointer and its name. An object with a `$ref` is left as it is. The depth is the document's, which the
    /// reader bounds.
    static func leaveOutUnknownFields(
        _ value: inout JSONValue, kind: DocumentRepair.Kind, at pointer: [String], is31: Bool,
        found: ([String], String) -> Void
    ) {
        // A schema holds only schemas, whose keywords are open.
        guard kind != .schema, case .object(var members) = value, !members.contains(where: { $0.key == "$ref" })
        else { return }
        value = .null
        defer { value = .object(members) }
        if let known = fields(of: kind) {
            members.removeAll { member in
                guard !known.contains(member.key), !member.key.hasPrefix("x-") else { return false }
                found(pointer + [member.key], member.key)
                return true
            }
        }
        for index in members.indices {
            let key = members[index].key
            switch DocumentRepair.holds(kind, key: key, is31: is31) {
            case .one(let inner)?:
                leaveOutUnknownFields(&members[index].value, kind: inner, at: pointer + [key], is31: is31, found: found)
            case .map(let inner)?:
                guard case .object(var entries) = members[index].value else { continue }
                members[index].value = .null
                for entry in entries.indices {
                    leaveOutUnknownFields(
                        &entries[entry].value, kind: inner, at: pointer + [key, entries[entry].key], is31: is31,
                        found: found)
                }
                members[index].value = .object(entries)
            case .list(let inner)?:
                guard case .array(var items) = members[index].value else { continue }
                members[index].value = .null
                for item in items.indices {
                    leaveOutUnknownFields(
                        &items[item], kind: inner, at: pointer + [key, String(item)], is31: is31, found: found)
                }
                members[index].value = .array(items)
            case nil:
                continue
            }
        }
    }
}
