import MoyaJSON
import MoyaSpec

extension Coverage {
    /// The JSON format's version; it changes only when a key's meaning does.
    public static let formatVersion = 1

    /// The figures as JSON (docs/coverage.md): totals, each service's, then an item per
    /// target. Keys are stable; a new one may be added.
    public var json: JSONValue {
        let total = self.total
        var members: [(key: String, value: JSONValue)] = [("version", .integer(Self.formatVersion))]
        members += Self.members(of: total)
        members.append(("unmatched", .integer(unmatched)))
        members.append(
            ("services", .array(services.map { .object([("name", .string($0.name))] + Self.members(of: $0.totals)) })))
        members.append(("items", .array(items.map(\.json))))
        return .object(members)
    }

    /// The file `--coverage` writes: the JSON indented, with a newline at the end.
    public var report: String {
        json.serialized(pretty: true, escapeSlashes: false) + "\n"
    }

    /// `percent`, then each count.
    static func members(of totals: Totals) -> [(key: String, value: JSONValue)] {
        [
            ("percent", .number(totals.percent)), ("targets", totals.targets.json),
            ("statuses", totals.statuses.json), ("params", totals.params.json),
            ("enumValues", totals.enumValues.json), ("bodyBranches", totals.bodyBranches.json),
        ]
    }
}

extension Coverage.Count {
    var json: JSONValue { .object([("covered", .integer(covered)), ("total", .integer(total))]) }
}

extension Coverage.Item {
    /// How many exchanges came back under each declared response.
    var seenByKey: [String: Int] {
        var counts: [String: Int] = [:]
        for (status, count) in seen {
            if let key = ResponseKey.match(status, in: declared.statuses) { counts[key, default: 0] += count }
        }
        return counts
    }

    var json: JSONValue {
        let counts = seenByKey
        let statuses = zip(declared.statuses, statusesCovered).map { key, covered in
            JSONValue.object([
                ("status", .string(key)), ("covered", .bool(covered)), ("seen", .integer(counts[key] ?? 0)),
            ])
        }
        let undeclared = self.undeclared.map { status in
            JSONValue.object([("status", .integer(status)), ("seen", .integer(seen[status] ?? 0))])
        }
        let params = zip(declared.params, paramsCovered).map { name, covered in
            JSONValue.object([("name", .string(name)), ("covered", .bool(covered))])
        }
        let enumValues = zip(declared.enumValues, enumValuesCovered).map { value, covered in
            JSONValue.object([
                ("in", .string(value.place)), ("name", .string(value.name)), ("value", value.shown),
                ("covered", .bool(covered)),
            ])
        }
        let branches = zip(declared.bodyBranches, bodyBranchesCovered).map { branch, covered in
            JSONValue.object([("branch", .string(branch.label)), ("covered", .bool(covered))])
        }
        return .object([
            ("service", .string(declared.service)), ("target", .string(declared.name)),
            ("method", .string(declared.method)), ("path", .string(declared.path)), ("group", .string(declared.group)),
            ("called", .bool(calls > 0)), ("calls", .integer(calls)), ("statuses", .array(statuses)),
            ("undeclaredStatuses", .array(undeclared)), ("params", .array(params)),
            ("enumValues", .array(enumValues)), ("bodyBranches", .array(branches)),
        ])
    }
}
