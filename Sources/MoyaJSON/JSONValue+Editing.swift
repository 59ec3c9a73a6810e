/// One step of a path into a JSON value that `setting(_:at:)` follows, making what is
/// missing: `data.tags[0].name` is `.member("data")`, `.member("tags")`, `.index(0)`,
/// `.member("name")`.
public enum JSONEditStep: Sendable, Hashable {
    /// An object's member; a missing or `null` value becomes an object.
    case member(String)
    /// An array's item, at most one past the last (which appends); a missing or `null`
    /// value becomes an array.
    case index(Int)
    /// A new item at the end of an array, `tags[]`.
    case append
}

/// Why a path or an edit cannot be made.
public struct JSONEditError: Error, Sendable, CustomStringConvertible {
    public var description: String

    public init(description: String) {
        self.description = description
    }
}

extension JSONEditStep {
    /// The longest path `parse` reads: a body is never that deep, and the edit recurses once
    /// per step.
    public static let maximumSteps = 64

    /// Reads `data.tags[0].name`: names between dots, each followed by any number of `[N]`
    /// or `[]`. A leading `$.` is allowed, as JSON paths write it. A name with a dot or a
    /// bracket is written `['a.b']`.
    public static func parse(_ text: String) throws(JSONEditError) -> [JSONEditStep] {
        var steps: [JSONEditStep] = []
        var rest = Substring(text)
        if rest.hasPrefix("$.") { rest = rest.dropFirst(2) } else if rest.hasPrefix("$[") { rest = rest.dropFirst() }
        var expectsName = true
        while !rest.isEmpty {
            if rest.hasPrefix("['") {
                guard let close = rest.firstRange(of: "']") else {
                    throw JSONEditError(description: "'\(text)': a quoted name ['…'] is not closed")
                }
                steps.append(.member(String(rest[rest.index(rest.startIndex, offsetBy: 2)..<close.lowerBound])))
                rest = rest[close.upperBound...]
            } else if rest.hasPrefix("[") {
                guard let close = rest.firstIndex(of: "]") else {
                    throw JSONEditError(description: "'\(text)': a [ is not closed")
                }
                let inside = rest[rest.index(after: rest.startIndex)..<close]
                if inside.isEmpty {
                    steps.append(.append)
                } else if let index = Int(inside), index >= 0 {
                    steps.append(.index(index))
                } else {
                    throw JSONEditError(
                        description: "'\(text)': [\(inside)] is not an index; write [N], [] to append, or ['name']")
                }
                rest = rest[rest.index(after: close)...]
            } else if expectsName {
                let end = rest.firstIndex { $0 == "." || $0 == "[" } ?? rest.endIndex
                let name = rest[..<end]
                guard !name.isEmpty else { throw JSONEditError(description: "'\(text)': a name is empty") }
                steps.append(.member(String(name)))
                rest = rest[end...]
            } else {
                throw JSONEditError(description: "'\(text)': expected . or [ after \(steps.count) steps")
            }
            expectsName = false
            if rest.hasPrefix(".") {
                rest = rest.dropFirst()
                expectsName = true
                guard !rest.isEmpty else { throw JSONEditError(description: "'\(text)': ends with a dot") }
            }
            guard steps.count <= maximumSteps else {
                throw JSONEditError(description: "'\(text)': longer than \(maximumSteps) steps")
            }
        }
        guard !steps.isEmpty else { throw JSONEditError(description: "the path is empty") }
        return steps
    }
}

extension JSONValue {
    /// This value with `value` at `steps`, making the objects and arrays the path needs. A
    /// step into a value of another kind (a member of an array, an item of a string) is an
    /// error that names where; so is an index more than one past an array's end.
    public func setting(_ value: JSONValue, at steps: some Collection<JSONEditStep>) throws(JSONEditError) -> JSONValue
    {
        try setting(value, at: ArraySlice(steps), done: 0)
    }

    private func setting(_ value: JSONValue, at steps: ArraySlice<JSONEditStep>, done: Int) throws(JSONEditError)
        -> JSONValue
    {
        guard let step = steps.first else { return value }
        let rest = steps.dropFirst()
        switch (step, self) {
        case (.member(let name), .object(var members)):
            if let index = members.lastIndex(where: { $0.key == name }) {
                members[index].value = try members[index].value.setting(value, at: rest, done: done + 1)
            } else {
                members.append((name, try JSONValue.null.setting(value, at: rest, done: done + 1)))
            }
            return .object(members)
        case (.member, .null):
            return try JSONValue.object([]).setting(value, at: steps, done: done)
        case (.index, .null), (.append, .null):
            return try JSONValue.array([]).setting(value, at: steps, done: done)
        case (.index(let index), .array(var items)):
            guard index <= items.count else {
                throw JSONEditError(
                    description:
                        "step \(done + 1), [\(index)]: the array has \(items.count) items; [\(items.count)] or [] appends"
                )
            }
            if index == items.count {
                items.append(try JSONValue.null.setting(value, at: rest, done: done + 1))
            } else {
                items[index] = try items[index].setting(value, at: rest, done: done + 1)
            }
            return .array(items)
        case (.append, .array(var items)):
            items.append(try JSONValue.null.setting(value, at: rest, done: done + 1))
            return .array(items)
        case (.member(let name), _):
            throw JSONEditError(
                description: "step \(done + 1), '\(name)': the value there is \(kindName), not an object")
        case (.index(let index), _):
            throw JSONEditError(
                description: "step \(done + 1), [\(index)]: the value there is \(kindName), not an array")
        case (.append, _):
            throw JSONEditError(description: "step \(done + 1), []: the value there is \(kindName), not an array")
        }
    }

    /// The value's kind with its article, for messages: `an object`, `a string`.
    public var kindName: String {
        switch self {
        case .null: "null"
        case .bool: "a boolean"
        case .integer, .number: "a number"
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        }
    }
}
