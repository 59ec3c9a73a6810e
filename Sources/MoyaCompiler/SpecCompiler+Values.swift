import MoyaSpec
import MoyaYAML

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

extension CompileContext {
    /// A JSON-like value whose strings are templates checked against the target's params.
    mutating func value(_ node: YAMLNode, _ path: @autoclosure () -> String, scope: ParamScope) -> ValueTemplate? {
        switch node.content {
        case .scalar:
            switch YAMLScalar.plainValue(node) {
            case .null?: return .null
            case .bool(let bool)?: return .bool(bool)
            case .integer(let int)?: return .integer(int)
            case .number(let double)?: return .number(double)
            default: break
            }
            guard let template = reader.template(node, path()) else { return nil }
            check(template, path(), scope, allowArrays: true)
            return .string(template)
        case .sequence(let items):
            var values: [ValueTemplate] = []
            for (index, item) in items.enumerated() {
                if let value = value(item, "\(path())[\(index)]", scope: scope) { values.append(value) }
            }
            return .array(values)
        case .mapping(let pairs):
            if let name = unquotedTemplate(node, pairs, scope: scope) {
                reader.unquotedReferenceError(node, name, path())
                return nil
            }
            guard let fields = reader.fields(node, path(), known: nil) else { return nil }
            var members: [ValueTemplate.Member] = []
            for entry in fields {
                if let name = Template(entry.key).params.first {
                    reader.error(
                        entry.mark, SpecReader.join(path(), entry.key),
                        "a key is sent as written, so {\(name)} in it is not filled in; only values take templates")
                    continue
                }
                guard let value = value(entry.value, SpecReader.join(path(), entry.key), scope: scope) else { continue }
                members.append(ValueTemplate.Member(key: entry.key, value: value, mark: entry.mark))
            }
            return .object(members)
        }
    }

    /// The name in `{name}` written without quotes, which YAML reads as a one-key mapping
    /// with a null value: nil unless the key names a declared param, or the mapping is
    /// written in braces alone.
    private func unquotedTemplate(
        _ node: YAMLNode, _ pairs: [(key: YAMLNode, value: YAMLNode)], scope: ParamScope
    ) -> String? {
        if let name = SpecReader.unquotedReference(node) { return name }
        guard pairs.count == 1, pairs[0].value.isNull, case .scalar(let name, .plain) = pairs[0].key.content else {
            return nil
        }
        return scope.params.contains(where: { $0.name == name }) ? name : nil
    }

    /// A query or parameter block: a mapping, or a sequence of one-key mappings.
    mutating func parameterBlock(_ node: YAMLNode, _ path: @autoclosure () -> String, scope: ParamScope)
        -> ParameterBlock?
    {
        switch node.content {
        case .mapping:
            guard case .object(let members) = value(node, path(), scope: scope) else { return nil }
            return ParameterBlock(entries: members, isOrdered: false)
        case .sequence(let items):
            var entries: [ValueTemplate.Member] = []
            for (index, item) in items.enumerated() {
                let itemPath = "\(path())[\(index)]"
                guard case .mapping(let pairs) = item.content, pairs.count == 1, let key = pairs[0].key.scalar else {
                    reader.error(
                        item.mark, itemPath, "each entry of an ordered list is a one-key mapping, such as - to: de")
                    continue
                }
                if let value = value(pairs[0].value, SpecReader.join(itemPath, key), scope: scope) {
                    entries.append(ValueTemplate.Member(key: key, value: value, mark: pairs[0].key.mark))
                }
            }
            return ParameterBlock(entries: entries, isOrdered: true)
        case .scalar:
            reader.error(
                node.mark, path(),
                "expected a mapping of names to values, or a list of one-key mappings, got \(node.kindDescription)")
            return nil
        }
    }

    /// A path relative to the spec file, reported when it does not exist or lies outside the
    /// spec's file root.
    mutating func existingFile(_ node: YAMLNode, _ path: @autoclosure () -> String) -> String? {
        guard let text = reader.string(node, path()) else { return nil }
        do {
            _ = try fileRoot.file(resolve(relativePath: text))
        } catch {
            reader.error(node.mark, path(), error.description)
            return nil
        }
        return text
    }

    /// A file the spec reads when it is sent (an upload, a multipart part), reported when it
    /// lies outside the spec's file root. One that is missing now is reported when it is sent.
    mutating func checkSource(_ template: Template, _ node: YAMLNode, _ path: @autoclosure () -> String) {
        guard let text = template.literalText else { return }
        let resolved = resolve(relativePath: text)
        do {
            if FileRoot.realPath(resolved) != nil {
                _ = try fileRoot.file(resolved)
            } else {
                _ = try fileRoot.destination(resolved)
            }
        } catch {
            guard error.reason != .noFolder else { return }
            reader.error(node.mark, path(), error.description)
        }
    }

    /// A path the spec writes to, relative to the spec file, reported when it lies outside the
    /// spec's file root or a link is there. A template with params or variables is checked
    /// when it is rendered.
    mutating func checkDestination(_ template: Template, _ node: YAMLNode, _ path: @autoclosure () -> String) {
        guard let text = template.literalText else { return }
        do {
            _ = try fileRoot.destination(resolve(relativePath: text))
        } catch {
            guard error.reason != .noFolder else { return }
            reader.error(node.mark, path(), error.description)
        }
    }

    func resolve(relativePath: String) -> String {
        ServiceSpec.path(relativePath, inSpec: file)
    }
}
