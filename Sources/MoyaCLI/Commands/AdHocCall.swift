import MoyaCommandSupport
import MoyaCompiler
import MoyaHTTP
import MoyaRuntime
import MoyaSpec

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// `call URL [ITEM...]`: a request with no spec, sent as the target `--save` writes.
///
/// The request becomes a target (`AdHocRequest`) in its service's spec text: a new spec at the
/// URL's origin, or, with `--save`, the spec it is saved into, so that the service's headers
/// and auth apply as they will to the saved target. The call sends that target with its
/// credentials bound as secrets; the file gets the same target with each credential read from
/// a `${SERVICE_…}` variable instead, so it sends the same bytes once the variable is set.
struct AdHocCall {
    let command: CallCommand
    /// The method, URL and items, as `CallCommand.adHoc` reads them.
    let words: (method: String?, url: String, items: [String])

    /// The service and target to send, and the argument words a call of it takes.
    func load() throws -> (ServiceSpec, TargetSpec, [String]) {
        let context = CommandContext.current
        var items = words.items
        // `--record` goes with `--save`: the response becomes the saved target's sample. Only
        // `--record` or `--record=NAME`, since a word after it may be a request item.
        let recording = items.firstIndex { $0 == "--record" || $0.hasPrefix("--record=") }.map { items.remove(at: $0) }
        for (option, given) in [
            ("--sample", command.sample != nil), ("--env", command.env != nil),
            ("--record", recording != nil && command.save == nil),
        ] where given {
            throw UsageError(
                "\(option) needs a spec's target; a URL has no samples or environments. --save SERVICE.TARGET "
                    + "makes one")
        }
        let whole = try command.bodyEdit()?.whole
        var request: AdHocRequest
        do {
            request = try AdHocRequest(
                url: words.url, items: items, method: words.method, form: command.form,
                multipart: command.multipart)
            if let auth = command.auth { try request.authorize(auth, type: command.authType) }
            if let whole { try request.setBody(whole) }
            request.followsLinks = command.pages.all
        } catch {
            throw error
        }
        let compiler = command.specOptions.compiler(explicitPaths: true)
        guard let save = command.save else {
            let service = request.serviceName
            let target = "request"
            if command.curl, !command.showSecrets {
                return try readingVariables(request, service: service, target: target, compiler: compiler)
            }
            let bound: AdHocRequest.Written
            do {
                bound = try request.target(named: target, base: request.origin, indent: 2, credentials: .bound)
            } catch {
                throw error
            }
            let text = TargetEdit.newSpec(service: service, baseURL: request.origin, lines: bound.lines)
            let compiled = try compile(
                text, file: "<command line>", target: target,
                compiler: Self.compiler(compiler, reading: bound.variables))
            return (compiled.0, compiled.1, bound.arguments)
        }
        let (service, target) = try SpecOptions.split(save, "SERVICE.TARGET")
        guard ParamSpec.isValidName(service), ParamSpec.isValidName(target) else {
            throw UsageError(
                "--save \(save): a service's and a target's names are letters, digits, '_' and '-', each starting "
                    + "with a letter")
        }
        let file = try specFile(for: service)
        var bound: [String] = []
        var variables: [AdHocRequest.Variable] = []
        var boundVariables: [AdHocRequest.Variable] = []
        var callText = ""
        let edit = TargetEdit(file: file, target: target, replaces: command.force)
        // The saved spec must compile as it will be called: with the variables it reads set.
        let reads = try written(request, target: target, service: service, base: request.origin, column: 2).saved
        let saving = Self.compiler(compiler, reading: reads.variables)
        do {
            _ = try SpecTrust(environment: context.environment).keeping(writing: [file]) {
                try TargetSaver.save(to: file, target: target, check: EditCheck(saving)) { original in
                    var base = request.origin
                    var column = 2
                    if let original {
                        let existing = try compiler.compile(Array(original.utf8), file: file)
                        guard existing.name == service else {
                            throw UsageError(
                                "--save \(save): \(file) declares service '\(existing.name)', not '\(service)'")
                        }
                        base = existing.baseURL
                        column = try edit.column(in: original)
                    }
                    let written = try written(request, target: target, service: service, base: base, column: column)
                    (bound, variables) = (written.bound.arguments, written.saved.variables)
                    boundVariables = written.bound.variables
                    guard let original else {
                        callText = TargetEdit.newSpec(service: service, baseURL: base, lines: written.bound.lines)
                        return TargetEdit.newSpec(service: service, baseURL: base, lines: written.saved.lines)
                    }
                    callText = try edit.apply(written.bound.lines, to: original)
                    return try edit.apply(written.saved.lines, to: original)
                }
            }
        } catch let diagnostic as Diagnostic {
            throw UsageError("--save \(save): nothing was saved", details: [diagnostic.description])
        } catch let error as any Problem {
            throw error
        } catch {
            throw FileFailure.unwritable("--save \(save): \(error)")
        }
        context.errorLine("moya-cli: saved \(service).\(target) in \(file)")
        for variable in variables {
            context.errorLine(
                "moya-cli: \(service).\(target) reads \(variable.place) from \(variable.name): set it to call the "
                    + "saved target")
        }
        let compiled = try compile(
            callText, file: file, target: target, compiler: Self.compiler(compiler, reading: boundVariables))
        return (compiled.0, compiled.1, bound + (recording.map { [$0] } ?? []))
    }

    /// The request as `--save` would write it, each credential read from a `${SERVICE_…}`
    /// variable set to the value given: what `--curl` prints then names the variable
    /// (`"$LOCALHOST_TOKEN"`), a command that runs once it is set, where a mask would be sent
    /// as it is. Each variable is named on stderr.
    private func readingVariables(
        _ request: AdHocRequest, service: String, target: String, compiler: SpecCompiler
    ) throws -> (ServiceSpec, TargetSpec, [String]) {
        let saved = try written(request, target: target, service: service, base: request.origin, column: 2).saved
        let reading = Self.compiler(compiler, reading: saved.variables)
        let text = TargetEdit.newSpec(service: service, baseURL: request.origin, lines: saved.lines)
        let compiled = try compile(text, file: "<command line>", target: target, compiler: reading)
        for variable in saved.variables {
            CommandContext.current.errorLine(
                "moya-cli: the curl command reads \(variable.place) from $\(variable.name): set it to run the command, "
                    + "or print the value with --show-secrets")
        }
        return (compiled.0, compiled.1, saved.arguments)
    }

    /// `compiler` with each of `variables` set to the value the command line gave.
    static func compiler(_ compiler: SpecCompiler, reading variables: [AdHocRequest.Variable]) -> SpecCompiler {
        var reading = compiler
        reading.environment = compiler.environment.setting(
            Dictionary(variables.map { ($0.name, $0.value) }, uniquingKeysWith: { $1 }))
        return reading
    }

    /// The target's lines as the call sends it and as the file gets it.
    private func written(_ request: AdHocRequest, target: String, service: String, base: String, column: Int)
        throws -> (bound: AdHocRequest.Written, saved: AdHocRequest.Written)
    {
        do {
            return (
                try request.target(named: target, base: base, indent: column, credentials: .bound),
                try request.target(
                    named: target, base: base, indent: column, credentials: .environment(service: service))
            )
        } catch {
            throw error
        }
    }

    private func compile(_ text: String, file: String, target: String, compiler: SpecCompiler)
        throws -> (ServiceSpec, TargetSpec)
    {
        let service: ServiceSpec
        do {
            service = try compiler.compile(Array(text.utf8), file: file, target: target)
        } catch {
            throw SpecOptions.invalid(error.diagnostics)
        }
        guard let compiled = service.target(named: target) else {
            throw UsageError("the request made no target '\(target)'")
        }
        return (service, compiled)
    }

    /// The spec `--save` writes into, which is where `call SERVICE.TARGET` will read it:
    /// `--specs FILE`; else the file that declares the service in the folders a call searches
    /// (`--specs DIR`, `MOYA_CLI_SPECS`, or `./specs` before the user's folder, the nearer
    /// first, as a call layers them); else a new `SERVICE.yaml` in `--specs DIR`, the first
    /// `MOYA_CLI_SPECS` folder, or the user's spec folder (`$XDG_CONFIG_HOME/moya-cli/specs`),
    /// which no nearer folder can hide, since none declares the service.
    private func specFile(for service: String) throws -> String {
        let environment = CommandContext.current.environment
        let specs = command.specOptions.specs
        if specs.count > 1 { throw UsageError("--save writes one spec; give one --specs FILE or DIR") }
        if let path = specs.first, !SpecLibrary.isFolder(path) { return path }
        let compiler = command.specOptions.compiler(explicitPaths: true)
        let searched = SpecLibrary.searchPaths(specs: specs, environment: environment)
        for path in searched {
            let layer = SpecLibrary(searchPaths: [path], compiler: compiler)
            if let found = try? layer.service(named: service) { return found.file }
        }
        let folder: String
        if !specs.isEmpty || !SpecLibrary.isLayered(specs: specs, environment: environment) {
            guard let first = searched.first(where: SpecLibrary.isFolder) else {
                throw UsageError(
                    "--save: MOYA_CLI_SPECS names no folder to write \(service).yaml in; name a file with --specs")
            }
            folder = first
        } else {
            guard let user = SpecLibrary.defaultPaths(environment: environment).dropFirst().first else {
                throw UsageError(
                    "--save needs a folder for specs: set HOME or XDG_CONFIG_HOME, or name a file with --specs")
            }
            folder = user
        }
        return (folder.hasSuffix("/") ? String(folder.dropLast()) : folder) + "/" + service + ".yaml"
    }
}
