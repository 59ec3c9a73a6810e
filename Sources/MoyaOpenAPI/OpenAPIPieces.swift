import MoyaHTTP
import OpenAPIKit
import OpenAPIKit30
import OpenAPIKitCompat

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Decodes a document with OpenAPIKit so that one bad spot costs only itself.
///
/// The whole document is decoded first. Only when OpenAPIKit refuses it is each operation,
/// path item and component decoded alone, in document order: a schema it refuses becomes
/// one that takes any value, anything else it refuses is left out, each with a warning that
/// names its JSON pointer. Then the rest is decoded whole again.
struct OpenAPIPieces {
    let version: String
    let file: String

    var is30: Bool { version.hasPrefix("3.0") }

    /// How many schemas in one operation are simplified before the operation is left out.
    static let simplifications = 16

    func decode(_ json: JSONValue, warnings: inout [String]) throws(OpenAPIReadError) -> OpenAPIKit.OpenAPI.Document {
        var json = json
        // A field OpenAPI does not define, without the `x-` of an extension (flasgger writes
        // one into `info.contact`), costs only itself.
        Self.leaveOutUnknownFields(&json, kind: .document, at: [], is31: !is30) { pointer, key in
            warn(pointer, "'\(key)' is not a field OpenAPI defines, nor an x- extension; left out", into: &warnings)
        }
        if let document = try? whole(json) { return document }
        prune(&json, warnings: &warnings)
        do {
            return try whole(json)
        } catch {
            let failure = Self.failure(of: error)
            let at = failure.path.isEmpty ? "" : "at \(Names.pointer(failure.path)): "
            throw OpenAPIReadError(message: "not a valid OpenAPI \(version) document: \(at)\(failure.message)")
        }
    }

    func whole(_ json: JSONValue) throws -> OpenAPIKit.OpenAPI.Document {
        let decoder = JSONDecoder()
        // Import reads no extensions, and OpenAPIKit finds an object's by decoding all of it
        // as `AnyCodable`, most of a large document's decoding time. OpenAPIKit30's key is
        // the same one. A field that is neither OpenAPI's nor an extension is left out
        // before (`leaveOutUnknownFields`).
        decoder.userInfo[OpenAPIKit.VendorExtensionsConfiguration.enabledKey] = false
        if is30 {
            return try decoder.decode(OpenAPIKit30.OpenAPI.Document.self, from: json.data()).convert(to: .v3_1_1)
        }
        return try decoder.decode(OpenAPIKit.OpenAPI.Document.self, from: json.data())
    }

    // MARK: - Pieces

    /// A document that holds only `paths` and `components`, so that a piece is decoded where
    /// OpenAPIKit expects it (its errors read their place from the coding path).
    func wrapper(paths: [(key: String, value: JSONValue)] = [], components: [(key: String, value: JSONValue)] = [])
        -> JSONValue
    {
        .object([
            (key: "openapi", value: .string(version)),
            (key: "info", value: .object([(key: "title", value: .string("")), (key: "version", value: .string(""))])),
            (key: "paths", value: .object(paths)),
            (key: "components", value: .object(components)),
        ])
    }

    /// Why OpenAPIKit refuses `document`, with the JSON pointer of the spot; nil when it
    /// takes it.
    func refusal(_ document: JSONValue) -> (path: [String], message: String)? {
        do {
            _ = try whole(document)
            return nil
        } catch {
            return Self.failure(of: error)
        }
    }

    /// Where an error of OpenAPIKit's is, as keys, and what it says, as one line.
    static func failure(of error: any Error) -> (path: [String], message: String) {
        let described = OpenAPIKit.OpenAPI.Error(from: error)
        let path = described.codingPath.map { $0.intValue.map(String.init) ?? $0.stringValue }
        var message: String
        if let decoding = error as? DecodingError {
            message = OpenAPIReader.describe(decoding)
        } else {
            message = described.localizedDescription
        }
        message = message.replacing("**", with: "").replacing("`", with: "'")
        if let line = message.split(separator: "\n").first { message = String(line) }
        while message.last == " " || message.last == "." { message.removeLast() }
        return (path, message)
    }

    // MARK: - Pruning

    static let methods: Set<String> = ["get", "put", "post", "delete", "options", "head", "patch", "trace", "query"]

    func warn(_ pointer: [String], _ message: String, into warnings: inout [String]) {
        warnings.append("\(file)#\(Names.pointer(pointer)): \(message)")
    }

    /// Decodes each operation, path item and component alone, and simplifies or leaves out
    /// what OpenAPIKit refuses.
    func prune(_ json: inout JSONValue, warnings: inout [String]) {
        guard case .object(var members) = json else { return }
        json = .null
        // Components first: an operation is decoded beside the security schemes that are
        // left, which its requirements must name.
        let order = members.indices.sorted {
            (members[$0].key == "components" ? 0 : 1) < (members[$1].key == "components" ? 0 : 1)
        }
        var schemes: [(key: String, value: JSONValue)] = []
        for index in order {
            switch members[index].key {
            case "paths":
                let key = members[index].key
                guard case .object(var items) = members[index].value else { continue }
                members[index].value = .null
                var position = 0
                while position < items.count {
                    let pointer = [key, items[position].key]
                    if prunePathItem(&items[position].value, at: pointer, schemes: schemes, warnings: &warnings) {
                        position += 1
                    } else {
                        items.remove(at: position)
                    }
                }
                members[index].value = .object(items)
            case "components":
                guard case .object(var kinds) = members[index].value else { continue }
                members[index].value = .null
                for kind in kinds.indices {
                    guard case .object(var entries) = kinds[kind].value else { continue }
                    kinds[kind].value = .null
                    let key = kinds[kind].key
                    var position = 0
                    while position < entries.count {
                        let alone = wrapper(components: [(key: key, value: .object([entries[position]]))])
                        guard let refused = refusal(alone) else {
                            position += 1
                            continue
                        }
                        if key == "schemas" {
                            warn(
                                refused.path, "\(refused.message); the schema is read as one that takes any value",
                                into: &warnings)
                            entries[position].value = .object([])
                            position += 1
                        } else {
                            warn(refused.path, "\(refused.message); left out", into: &warnings)
                            entries.remove(at: position)
                        }
                    }
                    kinds[kind].value = .object(entries)
                    if key == "securitySchemes" { schemes = [(key: key, value: .object(entries))] }
                }
                members[index].value = .object(kinds)
            default:
                continue
            }
        }
        json = .object(members)
    }

    /// Prunes one path item: false when it must be left out whole.
    func prunePathItem(
        _ item: inout JSONValue, at pointer: [String], schemes: [(key: String, value: JSONValue)],
        warnings: inout [String]
    ) -> Bool {
        guard case .object(var members) = item else { return true }
        item = .null
        var position = 0
        while position < members.count {
            let key = members[position].key
            guard Self.methods.contains(key) else {
                position += 1
                continue
            }
            if pruneOperation(
                &members[position].value, path: pointer[1], verb: key, schemes: schemes, warnings: &warnings)
            {
                position += 1
            } else {
                members.remove(at: position)
            }
        }
        item = .object(members)
        let rest = JSONValue.object(members.filter { !Self.methods.contains($0.key) })
        if let refused = refusal(wrapper(paths: [(key: pointer[1], value: rest)])) {
            warn(refused.path, "\(refused.message); the path is left out", into: &warnings)
            return false
        }
        return true
    }

    /// Prunes one operation: each schema OpenAPIKit refuses in it becomes one that takes any
    /// value; false when something else is refused, and the operation must be left out.
    func pruneOperation(
        _ operation: inout JSONValue, path: String, verb: String, schemes: [(key: String, value: JSONValue)],
        warnings: inout [String]
    ) -> Bool {
        let pointer = ["paths", path, verb]
        for _ in 0..<Self.simplifications {
            let alone = wrapper(
                paths: [(key: path, value: .object([(key: verb, value: operation)]))], components: schemes)
            guard let refused = refusal(alone)
            else { return true }
            guard refused.path.starts(with: pointer), let schema = refused.path.lastIndex(of: "schema"),
                schema >= pointer.count,
                Self.replace(&operation, at: refused.path[pointer.count...schema], with: .object([]))
            else {
                warn(refused.path, "\(refused.message); the operation is left out", into: &warnings)
                return false
            }
            warn(refused.path, "\(refused.message); the schema is read as one that takes any value", into: &warnings)
        }
        warn(pointer, "too many schemas are refused; the operation is left out", into: &warnings)
        return false
    }

    /// Puts `replacement` at `path` in `value`; false when there is nothing there.
    static func replace(_ value: inout JSONValue, at path: ArraySlice<String>, with replacement: JSONValue) -> Bool {
        guard let first = path.first else {
            value = replacement
            return true
        }
        switch value {
        case .object(var members):
            guard let index = members.firstIndex(where: { $0.key == first }) else { return false }
            value = .null
            defer { value = .object(members) }
            return replace(&members[index].value, at: path.dropFirst(), with: replacement)
        case .array(var items):
            guard let index = Int(first), items.indices.contains(index) else { return false }
            value = .null
            defer { value = .array(items) }
            return replace(&items[index], at: path.dropFirst(), with: replacement)
        default:
            return false
        }
    }
}
