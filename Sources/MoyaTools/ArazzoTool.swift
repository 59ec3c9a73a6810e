import MoyaArazzo
import MoyaCommandSupport
import MoyaHTTP
import MoyaOpenAPI
import MoyaSpec

/// `moya-cli import arazzo`, which moya-cli hands over to this program as
///
///     moya-cli-openapi import-arazzo FILE DIR|- [@file-root=DIR] [NAME=FILE]...
///
/// The document is validated as `moya-cli validate` does; each OpenAPI source description is
/// imported as `import openapi` imports it, to `DIR/SERVICE.yaml`, with the workflows as flows
/// of the spec of their first step's source. Without a folder, a document with one OpenAPI
/// source prints its spec.
enum ArazzoTool {
    static func importDocument(_ file: String, output folder: String?, sources arguments: [String])
        throws
    {
        // `@file-root=DIR` (moya-cli's `--file-root`) comes before the sources.
        let marker = ArazzoSource.fileRootArgument
        let fileRoot = arguments.first { $0.hasPrefix(marker) }.map { String($0.dropFirst(marker.count)) }
        let options = arguments.filter { !$0.hasPrefix(marker) }
        let given: [String: String]
        do {
            given = try ArazzoSource.givenFiles(options)
        } catch {
            throw UsageError(error.description)
        }
        guard let bytes = FileRoot.specBytes(file) else { throw FileFailure.missing("cannot read \(file)") }
        let document: ArazzoDocument
        do {
            document = try ArazzoDocument(bytes, file: file)
        } catch {
            throw error
        }
        let sources = ArazzoSource.load(document, given: given, fileRoot: FileRoot(spec: file, given: fileRoot))
        let validator = ArazzoValidator(document, sources: sources)
        for warning in validator.diagnostics where warning.severity == .warning {
            OpenAPITool.line(TerminalText.escapingControls(warning.description))
        }
        let errors = validator.diagnostics.filter { $0.severity == .error }
        guard errors.isEmpty else { throw SpecError(errors) }

        let descriptions = sources.filter { $0.type == "openapi" }
        if let unread = descriptions.first(where: { $0.problem != nil || $0.path == nil }) {
            throw FileFailure.missing("cannot import \(file): \(unread.problem ?? "'\(unread.name)' was not read")")
        }
        guard !descriptions.isEmpty else { throw InvalidDocument("\(file) names no OpenAPI description to import") }
        if folder == nil, descriptions.count > 1 {
            throw UsageError(
                "\(file) names \(descriptions.count) OpenAPI descriptions, each a spec; name a folder for them with -o")
        }
        // Each description's targets, which the flows call: imported once here for their
        // operations, and again as each spec is written.
        var services: [ArazzoImporter.Service] = []
        var specs: [(path: String, spec: String?)] = []
        for source in descriptions {
            guard let path = source.path, let data = FileRoot.specBytes(path) else {
                throw FileFailure.missing("cannot read \(source.path ?? source.url)")
            }
            let imported: OpenAPIImport
            do {
                imported = try OpenAPIImporter.importSpec(data, file: path)
            } catch {
                throw InvalidDocument(TerminalText.escapingControls("\(path): \(error.message)"))
            }
            var name = imported.service
            var number = 2
            while services.contains(where: { $0.name == name }) {
                name = imported.service + "\(number)"
                number += 1
            }
            services.append(.init(source: source.name, name: name, operations: imported.imported))
            specs.append((path, folder.map { ($0.hasSuffix("/") ? $0 : $0 + "/") + name + ".yaml" }))
        }
        let flows = ArazzoImporter.flows(document, services: services)
        for warning in flows.warnings { OpenAPITool.line(TerminalText.escapingControls(warning)) }
        for (service, spec) in zip(services, specs) {
            let lines = flows.lines[service.name] ?? []
            let appending = lines.isEmpty ? "" : "flows:\n" + lines.joined(separator: "\n") + "\n"
            try OpenAPITool.importDocument(spec.path, output: spec.spec, service: service.name, appending: appending)
            let names = flows.names[service.name] ?? []
            if let written = spec.spec, !names.isEmpty {
                OpenAPITool.line(
                    "moya-cli: wrote \(written): \(names.count) \(names.count == 1 ? "flow" : "flows") "
                        + "(\(names.joined(separator: ", ")))")
            }
        }
    }

    /// `export arazzo SERVICE`: the flows as an Arazzo document, and with a file, the OpenAPI
    /// document it names beside it.
    static func exportService(_ name: String, output: String?, paths: [String]) throws {
        let service = try OpenAPITool.loadService(name, paths: paths)
        guard !service.flows.isEmpty else { throw UsageError("service '\(name)' has no flows to export") }
        let openAPI = try OpenAPITool.exportedDocument(of: service)
        let source = service.name + ".openapi.json"
        let (text, notes) = ArazzoExporter.export(service, source: "./" + source)
        for note in notes { OpenAPITool.line("moya-cli: note: " + TerminalText.escapingControls(note)) }
        guard let output else {
            OpenAPITool.line("moya-cli: note: its source description is `moya-cli export openapi \(name) -o \(source)`")
            try OpenAPITool.write(text, to: nil)
            return
        }
        let folder = output.lastIndex(of: "/").map { String(output[...$0]) } ?? ""
        try OpenAPITool.write(openAPI, to: folder + source)
        try OpenAPITool.write(text, to: output)
    }
}
