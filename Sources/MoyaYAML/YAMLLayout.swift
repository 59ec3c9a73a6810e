import CLibYAML

/// Where each node of a YAML document stands in its text, for editing the text in place: the
/// layout `--record` reads to replace one sample and leave every other byte of a spec as it
/// was. Positions are offsets into the document's Unicode scalars, a leading byte order mark
/// not counted, as libyaml counts them.
package struct YAMLLayout {
    /// One node and where it stands.
    package struct Node {
        package enum Kind {
            case scalar(String)
            case sequence([Node])
            case mapping([(key: Node, value: Node)])
            /// `*name`: the node stands for another one.
            case alias
        }

        package var kind: Kind
        /// The offset of the node's first scalar.
        package var start: Int
        /// The offset just past its last scalar of content. A block collection's end is its
        /// last child's, so the comments and blank lines that follow it are not its own.
        package var end: Int
        /// Its line and column, from 1.
        package var mark: Mark
        /// Whether it is written in flow style, `{ … }` or `[ … ]`.
        package var isFlow = false
        /// An anchor, `&name`, on the node: others may refer to it.
        package var isAnchored = false
        /// Whether a scalar is written plain, without quotes.
        package var isPlain = false

        /// Whether the node is a plain scalar YAML reads as null.
        package var isNull: Bool {
            guard isPlain, case .scalar(let text) = kind else { return false }
            return YAMLNode.isNull(plain: text)
        }

        /// The value under `key` in a mapping.
        package func value(_ key: String) -> Node? {
            entry(key)?.value
        }

        /// The entry under `key` in a mapping.
        package func entry(_ key: String) -> (key: Node, value: Node)? {
            guard case .mapping(let pairs) = kind else { return nil }
            return pairs.last { pair in
                if case .scalar(key) = pair.key.kind { return true }
                return false
            }
        }
    }

    /// The document's root, nil for an empty document.
    package let root: Node?

    /// Reads the layout of the one document in `bytes`; nil when libyaml refuses the text,
    /// which a spec that compiled never is.
    package init?(_ bytes: [UInt8]) {
        var parser = yaml_parser_t()
        guard yaml_parser_initialize(&parser) == 1 else { return nil }
        defer { yaml_parser_delete(&parser) }
        let parsed: Node?? = bytes.withUnsafeBufferPointer { buffer in
            yaml_parser_set_input_string(&parser, buffer.baseAddress, buffer.count)
            yaml_parser_set_encoding(&parser, YAML_UTF8_ENCODING)
            return Self.parse(&parser)
        }
        guard let parsed else { return nil }
        root = parsed
    }

    /// A collection being read: its node so far, and for a mapping the key that waits for its
    /// value.
    private struct Open {
        var node: Node
        var items: [Node] = []
        var pairs: [(key: Node, value: Node)] = []
        var key: Node?
    }

    /// Builds the tree from libyaml's events with a stack rather than recursion; the loader
    /// has already bounded the depth of any spec this reads.
    private static func parse(_ parser: inout yaml_parser_t) -> Node?? {
        var stack: [Open] = []
        var root: Node?
        while true {
            var event = yaml_event_t()
            guard yaml_parser_parse(&parser, &event) == 1 else { return nil }
            defer { yaml_event_delete(&event) }
            let start = Int(event.start_mark.index)
            let end = Int(event.end_mark.index)
            let mark = Mark(event.start_mark)
            var finished: Node?
            switch event.type {
            case YAML_STREAM_END_EVENT:
                return .some(root)
            case YAML_SCALAR_EVENT:
                let scalar = event.data.scalar
                let text = String(
                    decoding: UnsafeBufferPointer(start: scalar.value, count: scalar.length), as: UTF8.self)
                var node = Node(kind: .scalar(text), start: start, end: end, mark: mark)
                node.isAnchored = scalar.anchor != nil
                node.isPlain = scalar.style == YAML_PLAIN_SCALAR_STYLE
                finished = node
            case YAML_ALIAS_EVENT:
                finished = Node(kind: .alias, start: start, end: end, mark: mark)
            case YAML_SEQUENCE_START_EVENT:
                var node = Node(kind: .sequence([]), start: start, end: end, mark: mark)
                node.isFlow = event.data.sequence_start.style == YAML_FLOW_SEQUENCE_STYLE
                node.isAnchored = event.data.sequence_start.anchor != nil
                stack.append(Open(node: node))
            case YAML_MAPPING_START_EVENT:
                var node = Node(kind: .mapping([]), start: start, end: end, mark: mark)
                node.isFlow = event.data.mapping_start.style == YAML_FLOW_MAPPING_STYLE
                node.isAnchored = event.data.mapping_start.anchor != nil
                stack.append(Open(node: node))
            case YAML_SEQUENCE_END_EVENT, YAML_MAPPING_END_EVENT:
                guard var open = stack.popLast() else { return nil }
                if event.type == YAML_SEQUENCE_END_EVENT {
                    open.node.kind = .sequence(open.items)
                    open.node.end = open.node.isFlow ? end : (open.items.last?.end ?? end)
                } else {
                    open.node.kind = .mapping(open.pairs)
                    open.node.end = open.node.isFlow ? end : (open.pairs.last?.value.end ?? end)
                }
                finished = open.node
            default:
                break
            }
            guard let node = finished else { continue }
            if stack.isEmpty {
                root = node
            } else if case .sequence = stack[stack.count - 1].node.kind {
                stack[stack.count - 1].items.append(node)
            } else if let key = stack[stack.count - 1].key {
                stack[stack.count - 1].pairs.append((key: key, value: node))
                stack[stack.count - 1].key = nil
            } else {
                stack[stack.count - 1].key = node
            }
        }
    }
}
