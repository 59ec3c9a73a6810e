import MoyaHTTP
import MoyaMCPProtocol
import MoyaSpec

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// `mcp --lock FILE`, against rug pulls: what the model is told of each tool (its name, title,
/// description, schemas and hints) and what a call of it sends (`sends(_:)`: its origin,
/// method, headers, params, body and where its credentials go) as they were when the lock was
/// written, so that a spec that
/// changes a tool under an agent that trusted it cannot start the server unnoticed. The first
/// run writes the file; a later one whose tools differ refuses to start, naming what changed,
/// until `--update-lock` accepts it.
public enum ToolLock {
    /// The lock's format version: 2 adds what each tool sends.
    static let format = 2

    /// Why the server does not start.
    public enum Failure: Error, Sendable {
        /// The tools differ from the lock's: what changed, one phrase each.
        case changed([String])
        /// The lock cannot be read, parsed or written.
        case file(String)
    }

    /// What happened to the lock.
    public enum Outcome: Sendable, Equatable {
        case written(tools: Int)
        case matched(tools: Int)
        case updated(changes: Int)
    }

    /// One tool as the lock holds it: what a client lists, less the one hint that depends on
    /// how the server was started (`openWorldHint`, false under `--stub`).
    static func entry(_ tool: ToolDescriptor) -> JSONValue {
        var members: [(key: String, value: JSONValue)] = [
            ("name", .string(tool.name)), ("title", .string(tool.title)), ("description", .string(tool.description)),
            ("inputSchema", tool.inputSchema),
        ]
        if let output = tool.outputSchema { members.append(("outputSchema", output)) }
        members.append(("readOnly", .bool(tool.isReadOnly)))
        members.append(("destructive", .bool(tool.isDestructive)))
        members.append(("sends", sends(tool)))
        return .object(members)
    }

    /// The lock of `catalog`'s offered tools, as its file's text.
    public static func text(of catalog: ToolCatalog) -> String {
        JSONValue.object([
            ("moya-cli-tool-lock", .integer(format)),
            ("tools", .array(catalog.exposed.map(entry))),
        ]).serialized(pretty: true, escapeSlashes: false) + "\n"
    }

    /// Writes the lock at `path` when there is none (or `update`), else holds the catalog to it.
    public static func apply(_ catalog: ToolCatalog, path: String, update: Bool) throws(Failure) -> Outcome {
        let current = text(of: catalog)
        let existing: [UInt8]?
        switch FileSystem.kind(path) {
        case .missing: existing = nil
        case .file:
            do {
                existing = try FileSystem.contents(path, limit: 256 << 20)
            } catch {
                throw .file("--lock \(path): \(error.message)")
            }
        default: throw .file("--lock \(path): not a regular file")
        }
        let changes = existing.map { differences(from: $0, to: catalog) } ?? []
        if let existing, String(decoding: existing, as: UTF8.self) == current {
            return .matched(tools: catalog.exposed.count)
        }
        if existing != nil, !update {
            throw .changed(changes.isEmpty ? ["the lock's text (run --update-lock to rewrite it)"] : changes)
        }
        do {
            try PendingFile.write(Array(current.utf8), to: path)
        } catch {
            throw .file("--lock \(path): \(error.description)")
        }
        return existing == nil ? .written(tools: catalog.exposed.count) : .updated(changes: changes.count)
    }

    /// What differs between the lock's tools and the catalog's, tool by tool, in the
    /// catalog's order then the lock's.
    static func differences(from lock: [UInt8], to catalog: ToolCatalog) -> [String] {
        guard let document = try? JSONValue(parsing: Data(lock)), case .array(let tools)? = document["tools"],
            document["moya-cli-tool-lock"] == .integer(format)
        else { return ["the lock is not a moya-cli tool lock of this version"] }
        var locked: [String: JSONValue] = [:]
        var order: [String] = []
        for tool in tools {
            guard case .string(let name)? = tool["name"] else { continue }
            locked[name] = tool
            order.append(name)
        }
        var changes: [String] = []
        var seen = Set<String>()
        for tool in catalog.exposed {
            seen.insert(tool.name)
            let now = entry(tool)
            guard let before = locked[tool.name] else {
                changes.append("\(tool.name) is new")
                continue
            }
            let fields = ["title", "description", "inputSchema", "outputSchema", "readOnly", "destructive"].filter {
                before[$0] != now[$0]
            }
            if !fields.isEmpty { changes.append("\(tool.name) changed its \(fields.joined(separator: ", "))") }
            if before["sends"] != now["sends"] {
                var parts: [String] = []
                if case .object(let members)? = now["sends"] {
                    parts = members.map(\.key).filter { before["sends"]?[$0] != now["sends"]?[$0] }
                }
                changes.append(
                    "\(tool.name) changed what it sends" + (parts.isEmpty ? "" : ": " + parts.joined(separator: ", ")))
            }
        }
        for name in order where !seen.contains(name) { changes.append("\(name) is gone") }
        return changes
    }
}
