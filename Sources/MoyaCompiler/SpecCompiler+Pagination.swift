import MoyaJSONPath
import MoyaSpec
import MoyaYAML

extension CompileContext {
    /// The keys of `paginate:`.
    static let paginateKeys = ["items", "next"]
    /// The keys of `paginate.next:` written as a mapping.
    static let nextPageKeys = ["url", "param", "from", "increment"]
    /// The most a page number or offset may grow by.
    static let maximumIncrement = 1 << 31

    /// `paginate: { items: PATH, next: link | { url: PATH } | { param: NAME, from: PATH }
    /// | { param: NAME, increment: N } }`, its param checked against the target's.
    mutating func pagination(_ node: YAMLNode, _ path: String, params: [ParamSpec]) -> PaginationSpec? {
        guard let fields = reader.fields(node, path, known: Self.paginateKeys, nearby: Self.nextPageKeys) else {
            return nil
        }
        let items = fields["items"].flatMap { pagePath($0, path + ".items") }
        if fields["items"] != nil, items == nil { return nil }
        guard let nextNode = fields["next"] else {
            reader.error(
                fields.mark, path + ".next",
                "required key is missing; say how the next page is asked for: link, { url: PATH }, "
                    + "{ param: NAME, from: PATH } or { param: NAME, increment: N }")
            return nil
        }
        guard let next = nextPage(nextNode, path + ".next", params: params) else { return nil }
        return PaginationSpec(items: items, next: next, mark: node.mark)
    }

    /// `next:`, one of the four styles.
    private mutating func nextPage(_ node: YAMLNode, _ path: String, params: [ParamSpec]) -> PaginationSpec.Next? {
        if case .scalar = node.content {
            guard reader.choice(node, path, ["link"], what: "next-page style") != nil else { return nil }
            return .link
        }
        guard let fields = reader.fields(node, path, known: Self.nextPageKeys) else { return nil }
        if let urlNode = fields["url"] {
            if let other = ["param", "from", "increment"].first(where: { fields[$0] != nil }) {
                reader.error(
                    fields.mark, path, "give url: alone, or param: with from: or increment:, not url: and \(other):")
                return nil
            }
            return pagePath(urlNode, path + ".url").map { .url($0) }
        }
        guard let paramNode = fields["param"], let name = reader.string(paramNode, path + ".param") else {
            if fields["param"] == nil {
                reader.error(
                    fields.mark, path,
                    "give url: PATH, or param: NAME with from: PATH (a cursor) or increment: N (a page number)")
            }
            return nil
        }
        guard let param = params.first(where: { $0.name == name }) else {
            let names = params.map(\.name)
            reader.error(
                paramNode.mark, path + ".param",
                "the target has no param '\(name)'"
                    + (names.isEmpty
                        ? "; declare it under params:" : Suggestion.hint(for: name, in: names)))
            return nil
        }
        switch (fields["from"], fields["increment"]) {
        case (let from?, nil):
            guard let cursor = pagePath(from, path + ".from") else { return nil }
            if !param.isOptional && param.defaultValue == nil {
                reader.error(
                    paramNode.mark, path + ".param",
                    "'\(name)' is required, and the first page is asked for without its cursor; "
                        + "make it optional: true")
                return nil
            }
            return .cursor(param: name, from: cursor)
        case (nil, let increment?):
            guard let step = reader.integer(increment, path + ".increment") else { return nil }
            guard (1...Self.maximumIncrement).contains(step) else {
                reader.error(
                    increment.mark, path + ".increment",
                    "expected a step from 1 to \(Self.maximumIncrement), got \(step)")
                return nil
            }
            guard param.type == .int else {
                reader.error(
                    paramNode.mark, path + ".param",
                    "'\(name)' is a \(param.type) param; a page number or offset is type: int")
                return nil
            }
            guard param.defaultValue != nil else {
                reader.error(
                    paramNode.mark, path + ".param",
                    "'\(name)' needs a default, the first page's number or offset, such as default: 1")
                return nil
            }
            return .increment(param: name, by: step)
        case (nil, nil):
            reader.error(
                fields.mark, path, "give param: '\(name)' with from: PATH (a cursor) or increment: N (a page number)")
            return nil
        case (_?, _?):
            reader.error(fields.mark, path, "give from: or increment:, not both")
            return nil
        }
    }

    /// A check's or a flow step's `pages: all | N`, for the target `name`, which must have
    /// `paginate:` (`paginated` nil: another service's, checked when it is called).
    mutating func pageCount(_ node: YAMLNode, _ path: String, target name: String, paginated: Bool?) -> PageCount? {
        var count: PageCount?
        if case .scalar(let text, .plain) = node.content, text == "all" {
            count = .all
        } else if case .scalar(let text, .plain) = node.content, let number = YAMLScalar.parseInteger(text) {
            guard (1...PageCount.allLimit).contains(number) else {
                reader.error(
                    node.mark, path, "expected all or a number of pages from 1 to \(PageCount.allLimit), got \(number)")
                return nil
            }
            count = .first(number)
        } else {
            reader.error(
                node.mark, path,
                "expected all or a number of pages, got \(reader.written(node, node.scalar ?? node.kindDescription))")
            return nil
        }
        if paginated == false {
            reader.error(node.mark, path, "the target '\(name)' has no paginate:, so it has no pages to read")
            return nil
        }
        return count
    }

    /// A JSON path in `paginate:`.
    private mutating func pagePath(_ node: YAMLNode, _ path: String) -> JSONPath? {
        reader.string(node, path).flatMap { jsonPath($0, node.mark, path) }
    }
}
