import ArgumentParser
import Dispatch
import MoyaCommandSupport
import MoyaCompiler
import MoyaCoverage
import MoyaHTTP
import MoyaServe
import MoyaSpec
import NIOCore

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

/// `moya-cli serve`: the specs' samples as a local HTTP server.
struct ServeCommand: CallerIsolatedCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        _superCommandName: MoyaCommand.name,
        abstract: "Serve the specs' samples as a local HTTP server: a mock of each service.",
        discussion: """
            Every target answers at its method and path, each service under its base URL's \
            path (its --env environment's, if it has one), or alone at / with --service. Path, \
            query, form, JSON-body and header values fill the sample's {param} templates, typed \
            as declared. A request that fits no target gets a 404 problem (RFC 9457) listing \
            the closest routes; one without the credentials its target sends (its auth, or a \
            header, query key or cookie read from ${VAR}) gets a 401 with WWW-Authenticate, \
            unless --no-auth; one with a missing or mistyped param, a value that breaks its \
            param's rules, or a body that does not parse, gets a 400 problem naming it. Prefer: example=NAME chooses a named sample, \
            as Prism does. A spec's stub: { delayed: S } delays the answer; an error: sample \
            closes the connection, and timeout never answers. Logs a line per request on \
            stderr; -v adds the bodies. Ctrl-C or SIGTERM stops it: requests in flight get up \
            to 5 s to finish, then --coverage FILE is written with what the requests covered, and \
            it exits 0. Exits 1 when it cannot listen, 64 for a usage \
            error, 65 for an invalid spec, 66 for a missing one.

            Examples:
              moya-cli serve specs/
              moya-cli serve specs/myservice.yaml --service myservice --port 8080
              moya-cli serve --env local --watch -v
            """
    )

    @Argument(help: ArgumentHelp("Spec files or directories. Defaults to the spec search path.", valueName: "path"))
    var paths: [String] = []

    @Option(help: ArgumentHelp("The port to listen on; 0 picks a free one.", valueName: "n"))
    var port = 4010

    @Option(help: ArgumentHelp("The address to listen on.", valueName: "address"))
    var host = "127.0.0.1"

    @Option(
        help: ArgumentHelp("Serve only this service, at / instead of under its base URL's path.", valueName: "name"),
        completion: .custom(GenerateSwiftCommand.completeServices))
    var service: String?

    @Option(help: ArgumentHelp("Serve each service under this environment's base URL path.", valueName: "name"))
    var env: String?

    @Flag(help: "Reload the specs when they change; a spec that stops validating keeps the last good one.")
    var watch = false

    @Option(
        name: .customLong("idle-timeout"),
        help: ArgumentHelp(
            "Close a connection that sends no whole request head for this many seconds; a body gets twice as long.",
            valueName: "seconds"))
    var idleTimeout = 30.0

    @Flag(name: .customShort("v"), help: "Log the request and response bodies too.")
    var verbose = false

    @OptionGroup var tls: TLSOptions

    @Flag(
        name: .customLong("no-auth"),
        help: "Answer requests that lack the credentials their target sends, instead of a 401.")
    var noAuth = false

    @Flag(name: .customLong("show-secrets"), help: "Print secrets in the log instead of ••••.")
    var showSecrets = false

    @Option(
        name: .customLong("coverage"),
        help: ArgumentHelp(
            "When serve stops, write how much of the services its requests exercised to this file, as JSON.",
            valueName: "file"))
    var coverageFile: String?

    @OptionGroup var specOptions: SpecOptions

    /// How long requests in flight get to finish after Ctrl-C or SIGTERM.
    static let grace = 5.0

    func validate() throws {
        guard (0...65_535).contains(port) else { throw ValidationError("--port takes 0 to 65535, not \(port)") }
        guard idleTimeout.isFinite, idleTimeout > 0, idleTimeout <= 86_400 else {
            throw ValidationError("--idle-timeout takes seconds from above 0 to 86400")
        }
    }

    func execute() async throws {
        let context = CommandContext.current
        let paths = self.paths.isEmpty ? nil : self.paths
        let router = try makeRouter(try specOptions.loadCatalog(paths: paths))
        let tlsContext = try tls.context()
        let serveLog = ServeLog(write: context.writeError)
        defer { serveLog.close() }
        let log: @Sendable (String) -> Void = { serveLog.line($0) }
        for warning in router.warnings { context.errorLine("moya-cli: warning: " + warning) }
        // Opened now, so that a destination that cannot be written fails before serving.
        let coverage = try coverageFile.map { file throws in
            (recorder: CoverageRecorder(services: router.services), report: try CheckCommand.openReport(file))
        }
        defer { coverage?.report.discard() }

        // The process's signals, unless the context stops the command itself.
        let signals = context.stopSignal == nil ? SignalStream() : nil
        let nextSignal: @Sendable () async -> Int32 = context.stopSignal ?? { await signals?.next() ?? SIGTERM }
        let server: MockHTTPServer
        do {
            server = try await MockHTTPServer(
                router: router, host: host, port: port,
                options: .init(
                    verbose: verbose, showSecrets: showSecrets, log: log, idleTimeout: idleTimeout, tls: tlsContext,
                    heard: coverage.map { Self.counting(into: $0.recorder) }))
        } catch {
            signals?.stop()
            throw ListenFailure(
                "cannot listen on \(Self.authority(host, port)): \(Self.reason(error))")
        }
        announce(router, port: server.port, log: log)
        serveLog.flush()

        let watcher =
            watch
            ? _Concurrency.Task { await self.watch(server, paths: paths, recorder: coverage?.recorder, log: log) } : nil
        let signal = await nextSignal()
        watcher?.cancel()
        log("moya-cli: \(Interrupts.name(of: signal)): stopping; requests in flight have \(Int(Self.grace)) s")
        let finished = await server.stop(grace: Self.grace)
        signals?.stop()
        if !finished { log("moya-cli: stopped with requests unanswered after \(Int(Self.grace)) s") }
        if let coverage {
            let figures = coverage.recorder.coverage
            try CheckCommand.write(
                figures.report, to: coverage.report)
            log("moya-cli: coverage \(JSONValue.format(figures.total.percent))% written to \(coverageFile ?? "")")
        }
    }

    /// Counts each request a target answered, with the values it read and its JSON body; a
    /// request no target answered counts as unmatched.
    static func counting(into recorder: CoverageRecorder) -> @Sendable (MockRequest, MockAnswer) -> Void {
        { request, answer in
            guard let name = answer.target, let dot = name.firstIndex(of: ".") else {
                if request.method != "OPTIONS" { recorder.recordUnmatched() }
                return
            }
            recorder.record(
                service: String(name[..<dot]), target: String(name[name.index(after: dot)...]), status: answer.status,
                params: answer.params
            ) {
                guard !request.body.isEmpty, let type = request.header("content-type"), JSONValue.isJSONMediaType(type)
                else { return nil }
                return try? JSONValue(parsing: Data(request.body))
            }
        }
    }

    private func makeRouter(_ catalog: SpecLibrary.Catalog) throws -> MockRouter {
        var services = catalog.services
        if let service {
            guard let found = services.first(where: { $0.name == service }) else {
                throw UsageError(
                    "no service '\(service)'" + specOptions.hint(service, services.map(\.name)))
            }
            services = [found]
        }
        guard !services.isEmpty else { throw FileFailure.missing("no services to serve") }
        return MockRouter(services: services, environment: env, atRoot: service != nil, asksCredentials: !noAuth)
    }

    private func announce(_ router: MockRouter, port: Int, log: (String) -> Void) {
        let scheme = tls.tlsCert == nil ? "http" : "https"
        log("moya-cli: serving \(Self.size(of: router)) on \(scheme)://\(Self.authority(host, port))")
        let width = router.mounts.map(\.service.count).max() ?? 0
        for mount in router.mounts {
            let padding = String(repeating: " ", count: width - mount.service.count)
            log("  \(mount.service)\(padding)  \(mount.prefix)")
        }
        if verbose { for route in router.routeList { log("    " + route) } }
    }

    /// `host:port`, an IPv6 address in brackets (RFC 3986).
    static func authority(_ host: String, _ port: Int) -> String {
        (host.contains(":") && !host.hasPrefix("[") ? "[\(host)]" : host) + ":\(port)"
    }

    /// `2 services, 20 targets`.
    static func size(of router: MockRouter) -> String {
        (router.services.count == 1 ? "1 service" : "\(router.services.count) services") + ", "
            + (router.targetCount == 1 ? "1 target" : "\(router.targetCount) targets")
    }

    /// Polls the spec files twice a second; on a change, compiles them again and serves the
    /// result, or prints its problems and keeps serving what it had.
    private func watch(
        _ server: MockHTTPServer, paths: [String]?, recorder: CoverageRecorder?, log: @Sendable (String) -> Void
    ) async {
        let library = specOptions.library(paths: paths)
        var seen = Self.fingerprint(library)
        while !_Concurrency.Task.isCancelled {
            try? await _Concurrency.Task.sleep(for: .milliseconds(500))
            let now = Self.fingerprint(library)
            guard now != seen else { continue }
            seen = now
            do {
                let router = try makeRouter(try specOptions.loadCatalog(paths: paths))
                server.replace(router)
                recorder?.declare(router.services)
                for warning in router.warnings { log("moya-cli: warning: " + warning) }
                log("moya-cli: reloaded: \(Self.size(of: router))")
            } catch {
                for line in error.failureDetails { log(line) }
                log("moya-cli: error: \(error.failureMessage); still serving the last specs that validated")
            }
        }
    }

    /// Each spec file's path, size and modification time, in order.
    static func fingerprint(_ library: SpecLibrary) -> [String] {
        guard let files = try? library.files() else { return [] }
        return files.map { path in
            var info = stat()
            guard stat(path, &info) == 0 else { return path + " gone" }
            #if canImport(Darwin)
                let modified = info.st_mtimespec
            #else
                let modified = info.st_mtim
            #endif
            return "\(path) \(info.st_size) \(modified.tv_sec).\(modified.tv_nsec)"
        }
    }

    /// Why binding failed, in a few words: `address already in use` rather than NIO's
    /// `bind(descriptor:ptr:bytes:): Address already in use (errno: 98)`.
    static func reason(_ error: any Error) -> String {
        if let error = error as? IOError { return String(cString: strerror(error.errnoCode)).lowercased() }
        return "\(error)"
    }
}

/// SIGINT, SIGTERM and SIGHUP as they arrive; after the first, each signal's default action
/// is back, so a second one ends the process at once.
final class SignalStream: @unchecked Sendable {
    // The sources are set once in `init` and only cancelled after.
    private var sources: [any DispatchSourceSignal] = []
    private let stream: AsyncStream<Int32>
    private let continuation: AsyncStream<Int32>.Continuation

    init() {
        (stream, continuation) = AsyncStream.makeStream(of: Int32.self)
        let continuation = self.continuation
        sources = Interrupts.signals.map(\.number).map { number in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler {
                continuation.yield(number)
                for other in Interrupts.signals.map(\.number) { signal(other, SIG_DFL) }
            }
            source.resume()
            return source
        }
    }

    /// The next signal.
    func next() async -> Int32 {
        var iterator = stream.makeAsyncIterator()
        return await iterator.next() ?? SIGTERM
    }

    /// Stops listening and restores the default actions.
    func stop() {
        for (source, number) in zip(sources, Interrupts.signals.map(\.number)) {
            source.cancel()
            signal(number, SIG_DFL)
        }
        continuation.finish()
    }
}
