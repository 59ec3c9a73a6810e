import MoyaArazzo
import MoyaCommandSupport
import MoyaCompiler
import MoyaRuntime
import MoyaSchema
import MoyaSpec
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// An Arazzo document named on the command line: read, its sources loaded, and validated, as
/// `validate`, `run` and `check` read one.
struct ArazzoFile: Sendable {
    let document: ArazzoDocument
    let sources: [ArazzoSource]

    /// `--source NAME=FILE` options as a map; a repeated name or one without `=` is a usage
    /// error.
    static func sourceFiles(_ options: [String]) throws -> [String: String] {
        do {
            return try ArazzoSource.givenFiles(options)
        } catch {
            throw UsageError(error.description)
        }
    }

    /// Reads and validates the document at `path`: its warnings go to stderr, and an error
    /// fails with every diagnostic (exit 65); a file that cannot be read is exit 66.
    /// `printsWarnings: false` leaves them to the import that follows, which says them too.
    /// `fileRoot` is `--file-root`: the folder the document's relative sources must be in,
    /// instead of the document's own.
    static func validate(
        _ path: String, sources given: [String: String], fileRoot: String? = nil, printsWarnings: Bool = true
    ) throws -> ArazzoFile {
        guard let bytes = FileRoot.specBytes(path) else { throw FileFailure.missing("cannot read \(path)") }
        let document: ArazzoDocument
        do {
            document = try ArazzoDocument(bytes, file: path)
        } catch {
            throw error
        }
        for name in given.keys where !document.sources.contains(where: { $0["name"]?.stringValue == name }) {
            let names = document.sources.compactMap { $0["name"]?.stringValue }
            throw UsageError("\(path) has no source description '\(name)'" + Suggestion.hint(for: name, in: names))
        }
        let sources = ArazzoSource.load(document, given: given, fileRoot: FileRoot(spec: path, given: fileRoot))
        let validator = ArazzoValidator(document, sources: sources)
        let errors = validator.diagnostics.filter { $0.severity == .error }
        for warning in validator.diagnostics where printsWarnings && warning.severity == .warning {
            CommandContext.current.errorLine(TerminalText.escapingControls(warning.description))
        }
        guard errors.isEmpty else { throw SpecError(errors) }
        return ArazzoFile(document: document, sources: sources)
    }
}

extension ArazzoFile {
    /// The workflows' ids.
    var workflowIds: [String] { document.workflows.compactMap { $0["workflowId"]?.stringValue } }

    /// An imported service as the document's: its file the document, and each step of a
    /// flow made from a workflow (and what it expects and captures) at the step's place in the
    /// document, so that a failure, in any output or report, names the step as written.
    func relocated(_ service: ServiceSpec) -> ServiceSpec {
        var service = service
        service.file = document.file
        service.flows = service.flows.map { flow in
            var flow = flow
            var workflow = flow.name
            while !workflowIds.contains(workflow), workflow.hasSuffix("Flow") { workflow.removeLast(4) }
            if let path = place(ofWorkflow: workflow) { flow.mark = document.node(at: path).mark }
            flow.steps = flow.steps.map { step in
                guard let path = place(ofStep: step.name, workflow: workflow) else { return step }
                let mark = document.node(at: path).mark
                var step = step
                step.mark = mark
                for index in step.assertions.indices { step.assertions[index].mark = mark }
                for index in step.until.indices { step.until[index].mark = mark }
                for index in step.captures.indices { step.captures[index].mark = mark }
                return step
            }
            return flow
        }
        return service
    }

    private func place(ofWorkflow id: String) -> [SchemaError.Step]? {
        document.workflows.firstIndex { $0["workflowId"]?.stringValue == id }.map { [.key("workflows"), .index($0)] }
    }

    /// The place of a step named `stepId`, or for a step of a workflow another step runs,
    /// `outer.inner`.
    private func place(ofStep name: String, workflow: String) -> [SchemaError.Step]? {
        var path: [SchemaError.Step]?
        var current = workflow
        let ids = name.split(separator: ".").map(String.init)
        for (index, id) in ids.enumerated() {
            guard let workflowPath = place(ofWorkflow: current), case .index(let w) = workflowPath[1],
                case .array(let steps)? = document.workflows[w]["steps"],
                let s = steps.firstIndex(where: { $0["stepId"]?.stringValue == id })
            else { return path }
            path = workflowPath + [.key("steps"), .index(s)]
            if index < ids.count - 1, let next = steps[s]["workflowId"]?.stringValue { current = next }
        }
        return path
    }

    /// The document's workflows as flows of specs in a new temporary folder, which `remove`
    /// deletes: `import arazzo`, run by the helper program, whose warnings and errors go to
    /// stderr. `run FILE WORKFLOW` and `check FILE` run them from there.
    static func imported(_ path: String, sources: [String], fileRoot: String? = nil) throws -> Imported {
        let context = CommandContext.current
        // The program in-process (`CommandContext.helper`), else the executable.
        let helper = context.helper
        let located = helper == nil ? HelperProgram.locate(context.environment) : nil
        guard helper != nil || located != nil else {
            throw HelperFailure(
                "\(HelperProgram.executable), which imports Arazzo documents, is not beside moya-cli or on PATH; "
                    + "make install installs it")
        }
        let base = context.environment["TMPDIR"].flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
        var template = Array((base + "/moya-cli-arazzo-XXXXXX").utf8CString)
        let made = template.withUnsafeMutableBufferPointer { buffer in
            buffer.baseAddress.flatMap { mkdtemp($0) }.map { String(cString: $0) }
        }
        guard let folder = made else {
            throw FileFailure.unwritable("cannot make a folder in \(base): \(String(cString: strerror(errno)))")
        }
        let imported = Imported(folder: folder)
        let arguments =
            [HelperProgram.openAPI.name, "import-arazzo", path, folder + "/specs"]
            + (fileRoot.map { [ArazzoSource.fileRootArgument + $0] } ?? []) + sources
        let exited: Int32
        let errors: [UInt8]
        if let helper {
            let captured = Mutex<[UInt8]>([])
            exited = helper(arguments, { _ in }, { bytes in captured.withLock { $0 += bytes } })
            errors = captured.withLock { $0 }
        } else {
            do {
                // In moya-cli's own environment and process group, to its end: Ctrl-C reaches it.
                let outcome = try ChildProcess.run(
                    arguments, executable: located, environment: nil, path: nil, timeout: nil, ownGroup: false)
                (exited, errors) = (outcome.status ?? 1, outcome.errors)
            } catch {
                imported.remove()
                throw HelperFailure(error.reason)
            }
        }
        // What import says that a run needs: its warnings and errors, not what it wrote where.
        let said = String(decoding: errors, as: UTF8.self)
        for line in said.split(separator: "\n") where line.contains(": warning: ") || line.contains("error: ") {
            guard !line.hasPrefix("moya-cli: warning: ") || !line.contains("#/") else { continue }
            context.errorLine(String(line))
        }
        guard exited == 0 else {
            imported.remove()
            throw HelperFailure("cannot import \(path)", exited: exited)
        }
        return imported
    }

    /// A temporary folder of imported specs.
    struct Imported: Sendable {
        let folder: String
        var specs: String { folder + "/specs" }

        func remove() { try? FileManager.default.removeItem(atPath: folder) }
    }
}

/// Arazzo documents read as specs, as `run`, `check` and `mcp` read them: each validated,
/// imported into a temporary folder (`remove()` deletes them), and the services read from
/// there relocated to the document, so that a failure names the step as written.
struct ArazzoSpecs: Sendable {
    let documents: [(file: ArazzoFile, imported: ArazzoFile.Imported)]

    /// Validates and imports each document; nothing is left when one fails.
    init(_ paths: [String], sources: [String], fileRoot: String? = nil) throws {
        let given = try ArazzoFile.sourceFiles(sources)
        var documents: [(file: ArazzoFile, imported: ArazzoFile.Imported)] = []
        do {
            for path in paths {
                let file = try ArazzoFile.validate(path, sources: given, fileRoot: fileRoot, printsWarnings: false)
                documents.append((file, try ArazzoFile.imported(path, sources: sources, fileRoot: fileRoot)))
            }
        } catch {
            for document in documents { document.imported.remove() }
            throw error
        }
        self.documents = documents
    }

    /// The folders the imported specs are in.
    var folders: [String] { documents.map(\.imported.specs) }

    /// The catalog with each imported service relocated to its document.
    func relocated(_ catalog: SpecLibrary.Catalog) -> SpecLibrary.Catalog {
        var catalog = catalog
        catalog.services = catalog.services.map { service in
            documents.first { service.file.hasPrefix($0.imported.specs + "/") }?.file.relocated(service) ?? service
        }
        return catalog
    }

    /// The flow a workflow became: named by its id, with `Flow` after it where a target has
    /// that name.
    static func flow(_ workflow: String, in catalog: SpecLibrary.Catalog) throws -> (
        ServiceSpec, FlowSpec
    ) {
        for name in [workflow, workflow + "Flow", workflow + "FlowFlow"] {
            for service in catalog.services {
                if let flow = service.flows.first(where: { $0.name == name }) { return (service, flow) }
            }
        }
        throw RunFailure("the workflow '\(workflow)' has no flow: import left it out (see the warnings)")
    }

    func remove() { for document in documents { document.imported.remove() } }
}
