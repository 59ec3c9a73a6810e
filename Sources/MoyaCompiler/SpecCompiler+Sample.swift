import MoyaSpec
import MoyaYAML

extension CompileContext {
    mutating func sample(_ node: YAMLNode, _ path: @autoclosure () -> String, scope: ParamScope) -> SampleSpec? {
        switch node.content {
        case .scalar:
            if node.isNull { return .response(status: 200, headers: [], body: .empty) }
            guard let template = reader.template(node, path()) else { return nil }
            check(template, path(), scope, allowArrays: true)
            return .response(status: 200, headers: [], body: .text(template))
        case .sequence:
            reader.error(
                node.mark, path(),
                "expected text or a mapping with json, file, body, status, headers or error; got a sequence")
            return nil
        case .mapping:
            break
        }
        guard let fields = reader.fields(node, path(), known: SpecCompiler.sampleKeys, nearby: SpecCompiler.targetKeys)
        else {
            return nil
        }
        if let errorNode = fields["error"] {
            for entry in fields where entry.key != "error" {
                let key = entry.key
                reader.error(
                    entry.mark, path() + "." + key,
                    "a sample with 'error' is a network failure and has no \(key)")
            }
            let names = SampleNetworkError.allCases.map(\.rawValue)
            return reader.choice(errorNode, path() + ".error", names, what: "network error")
                .flatMap(SampleNetworkError.init(rawValue:)).map(SampleSpec.error)
        }
        var status = 200
        if let statusNode = fields["status"], let code = reader.integer(statusNode, path() + ".status") {
            if (100...599).contains(code) {
                status = code
            } else {
                reader.error(
                    statusNode.mark, path() + ".status", "\(code) is not an HTTP status code; expected 100 to 599")
            }
        }
        let headers = fields["headers"].map { self.headers($0, path() + ".headers", scope: scope) } ?? []
        let bodies = ["body", "json", "file"].filter { fields[$0] != nil }
        if bodies.count > 1 {
            reader.error(
                node.mark, path(), "a sample has one of body, json or file; found \(bodies.joined(separator: " and "))")
            return nil
        }
        var body = SampleBody.empty
        if let bodyNode = fields["body"] {
            guard let template = reader.template(bodyNode, path() + ".body") else { return nil }
            check(template, path() + ".body", scope, allowArrays: true)
            body = .text(template)
        } else if let jsonNode = fields["json"] {
            guard let json = value(jsonNode, path() + ".json", scope: scope) else { return nil }
            body = .json(json)
        } else if let fileNode = fields["file"] {
            guard let file = existingFile(fileNode, path() + ".file") else { return nil }
            body = .file(resolve(relativePath: file))
        }
        return .response(status: status, headers: headers, body: body)
    }
}
