import ArgumentParser
import MoyaArazzo
import MoyaCompiler
import MoyaHTTP
import MoyaMCP
import MoyaMCPProtocol
import MoyaRuntime
import MoyaSpec
import MoyaTransport
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `moya-cli mcp`: the specs' targets and flows as Model Context Protocol tools on stdio.
struct MCPCommand: CallerIsolatedCommand {
    static let configuration = CommandConfiguration(
        commandName: "mcp",
        _superCommandName: MoyaCommand.name,
        abstract: "Serve the specs' targets and flows as MCP tools to an AI agent, on stdio or HTTP.",
        discussion: """
            Speaks the Model Context Protocol over stdio, revision 2026-07-28 (stateless: \
            server/discover, the revision in each request's _meta) and the initialize \
            handshake's revisions up to 2025-11-25, chosen per request: JSON-RPC messages on \
            stdin and stdout, one per line, and nothing else on stdout; what a person reads \
            goes to stderr.

            With --http it serves MCP's Streamable HTTP transport on /mcp instead: stateless at \
            2026-07-28, so any number of instances behind a load balancer answer as one, and \
            with sessions (Mcp-Session-Id) at the handshake's revisions. Requests from web \
            pages are refused unless --allow-origin names their origin. Beyond loopback it \
            needs --auth-issuer and --audience (OAuth bearer tokens, checked against the \
            issuer's keys and never passed to the API) or an explicit --no-auth.

            Each target is a tool named SERVICE.TARGET, each flow too, and each workflow of an \
            Arazzo document given as --specs, as the flow import arazzo makes of it. Only GET, HEAD and \
            OPTIONS are offered unless --allow-writes (POST, PUT, PATCH) or --allow-deletes \
            (DELETE) say more; --only keeps the tools whose names match; `mcp: false` in a spec \
            keeps a target or flow out whatever the flags. Secret params and params that read \
            the environment are not arguments: the model neither sees nor sets them, and no \
            secret reaches a result, an error or the audit log.

            A call is sent as `moya-cli call` sends it: the environment, logins, retries, \
            timeouts and redirects, or the samples with --stub. Results over \
            --max-result-bytes are cut; the moya.select argument (a JSON path) asks for less.

            Examples:
              moya-cli mcp --specs specs/
              moya-cli mcp --specs specs/github.yaml --only 'github.*' --audit mcp-audit.jsonl
              moya-cli mcp --specs pets.arazzo.yaml
              moya-cli mcp --stub immediate
              moya-cli mcp --allow-writes --tools dynamic
              moya-cli mcp --http 8080 --stub immediate
              moya-cli mcp --http 0.0.0.0:443 --tls-cert cert.pem --tls-key key.pem \\
                --auth-issuer https://auth.example.com --audience https://mcp.example.com/mcp
            """
    )

    @Option(
        help: ArgumentHelp(
            "never, immediate or delayed=SECONDS: answer from the samples. Defaults to each spec's stub.",
            valueName: "behavior"))
    var stub: String?

    @Option(help: ArgumentHelp("Use each service's environment of this name.", valueName: "name"))
    var env: String?

    @Flag(name: .customLong("allow-writes"), help: "Offer POST, PUT and PATCH targets too.")
    var allowWrites = false

    @Flag(name: .customLong("allow-deletes"), help: "Offer DELETE targets too.")
    var allowDeletes = false

    @Option(
        help: ArgumentHelp(
            "Offer only the targets and flows whose SERVICE.NAME matches; * and ? as in a shell; repeatable.",
            valueName: "glob"))
    var only: [String] = []

    @Option(
        help: ArgumentHelp(
            "targets: one tool per target and flow; dynamic: three tools to search, describe and call them.",
            valueName: "mode"))
    var tools: ToolMode?

    @Option(
        name: .customLong("max-result-bytes"),
        help: ArgumentHelp("Cut a result's text at this many bytes (default 16384).", valueName: "n"))
    var maxResultBytes = 16 << 10

    @Option(help: ArgumentHelp("Append one JSON line per tool call to FILE (created 0600).", valueName: "file"))
    var audit: String?

    @Option(
        name: .customLong("allow-files"),
        help: ArgumentHelp("Offer file params, taking paths inside DIR only.", valueName: "dir"))
    var allowFiles: String?

    @Option(
        help: ArgumentHelp(
            "Write the tools' names, descriptions and schemas to FILE on the first run; refuse to start "
                + "(exit 65) when they change.", valueName: "file"))
    var lock: String?

    @Flag(name: .customLong("update-lock"), help: "With --lock, accept the tools as they are now and rewrite the lock.")
    var updateLock = false

    @Flag(name: .customShort("v"), help: "Log each request and response to stderr; -vv adds their bodies.")
    var verbosity: Int

    @OptionGroup(title: "HTTP") var serving: MCPHTTPOptions

    @OptionGroup(title: "Network") var network: NetworkOptions

    @OptionGroup var specOptions: SpecOptions

    enum ToolMode: String, ExpressibleByArgument, CaseIterable {
        case targets
        case dynamic
    }

    func validate() throws {
        if updateLock, lock == nil { throw ValidationError("--update-lock needs --lock") }
        guard (1024...(64 << 20)).contains(maxResultBytes) else {
            throw ValidationError("--max-result-bytes takes 1024 to 67108864, not \(maxResultBytes)")
        }
        if let allowFiles {
            var status = stat()
            guard stat(allowFiles, &status) == 0, (status.st_mode & S_IFMT) == S_IFDIR else {
                throw ValidationError("--allow-files \(allowFiles): not a folder")
            }
        }
    }

    /// How `--http`'s start ended: its options made, a failure, or a signal first.
    private enum Start: Sendable {
        case options(HTTPTransport.Options)
        case failed(any Error)
        case stopped(Int32)
    }

    func execute() async throws {
        let context = CommandContext.current
        let behavior = try stub.map { text throws in try CallCommand.parseStub(text) }
        // An Arazzo document among --specs offers its workflows, as the flows import makes of
        // them, from a folder removed when mcp stops.
        var options = specOptions
        let arazzo = try ArazzoSpecs(
            options.specs.filter(ArazzoDocument.isArazzo(path:)), sources: [], fileRoot: options.fileRoot)
        defer { arazzo.remove() }
        var folders = arazzo.folders[...]
        options.specs = options.specs.map { ArazzoDocument.isArazzo(path: $0) ? folders.popFirst() ?? $0 : $0 }
        let library = options.library()
        let log: @Sendable (String) -> Void = { context.errorLine($0) }
        var configuration = network.configuration(
            environment: context.environment,
            willRetry: { attempt, delay, reason in
                log("moya-cli: \(reason); retrying in \(FixedPoint.format(delay, places: 1)) s (retry \(attempt))")
            })
        configuration.maximumBodyBytes = BodyOutput.limit
        let session = Session(configuration: configuration)
        let (env, overrides, noTokenCache) = (self.env, network.overrides(stub: behavior), network.noTokenCache)
        let logOptions = CallCommand.logOptions(verbosity: verbosity)
        let signals = context.stopSignal == nil ? SignalStream() : nil
        // The first signal, waited for once for the whole command: a start that waits on the
        // network and the server after it both end at it. (A wait on the stream itself would
        // end the stream when the start's wait is cancelled.)
        let waitForSignal = context.stopSignal ?? { await signals?.next() ?? SIGTERM }
        let firstSignal = FirstSignal()
        _Concurrency.Task { firstSignal.arrive(await waitForSignal()) }
        let nextSignal: @Sendable () async -> Int32 = { await firstSignal.wait() ?? SIGTERM }
        var http: MCPInvocation.HTTP?
        if let text = serving.http, let address = MCPHTTPOptions.address(text) {
            // Fetching the issuer's keys waits on the network: a signal ends the wait.
            let serving = self.serving
            let started = await withTaskGroup(of: Start?.self) { group in
                group.addTask {
                    do {
                        return .options(try await serving.transportOptions(session: session))
                    } catch {
                        return .failed(error)
                    }
                }
                group.addTask {
                    let number = await nextSignal()
                    return _Concurrency.Task.isCancelled ? nil : .stopped(number)
                }
                let first = await group.next() ?? nil
                group.cancelAll()
                return first
            }
            switch started {
            case .options(let options)?:
                http = MCPInvocation.HTTP(host: address.host, port: address.port, options: options)
            case .failed(let failure)?:
                signals?.stop()
                await session.shutdown()
                throw failure
            case .stopped(let number)?:
                log("moya-cli: \(MCPInvocation.name(of: number)): stopping")
                signals?.stop()
                await session.shutdown()
                return
            case nil:
                signals?.stop()
                await session.shutdown()
                return
            }
        }
        let invocation = MCPInvocation(
            load: {
                let catalog = arazzo.relocated(try SpecOptions.loadCatalog(library, context: context))
                var client = SpecClient(
                    services: catalog.services, environment: env, overrides: overrides, session: session,
                    showSecrets: false, logins: Logins(environment: context.environment, usesCache: !noTokenCache),
                    logOptions: logOptions, log: log)
                let trust = SecretStoreTrust(
                    refusesEnvironment: library.compiler.refusesEnvironment, environment: context.environment)
                client.secrets = SecretVault(environment: context.environment, refuses: trust.refusal)
                return client
            },
            preview: { count in
                guard let first = try? library.files().first,
                    let (service, targets) = library.compiler.preview(file: first, firstTargets: count)
                else { return nil }
                return (service, targets.map { service.name + "." + $0 })
            },
            allowsWrites: allowWrites, allowsDeletes: allowDeletes, only: only, dynamic: tools == .dynamic,
            listsDynamicHint: tools == nil, maxResultBytes: maxResultBytes, audit: audit, allowsFilesIn: allowFiles,
            stubbed: behavior.map { $0 != .never } ?? false, http: http, lock: lock, updatesLock: updateLock, log: log,
            nextSignal: nextSignal)
        do {
            try await MCPServing.serve(invocation)
        } catch {
            signals?.stop()
            await session.shutdown()
            throw error
        }
        signals?.stop()
        await session.shutdown()
    }
}

/// What `moya-cli mcp` has read from its command line and the specs, for `MCPServing`.
struct MCPInvocation: Sendable {
    /// Loads every spec and makes the client every tool call is sent through: the specs,
    /// `--env`, `--stub`, the network options, logins and `-v`. Throws the problems that end
    /// the command (an invalid spec, none found).
    let load: @Sendable () throws -> SpecClient
    /// A first look at the first spec file: its service with its first N targets alone, and
    /// the full names of all its targets; nil when it cannot be cut out (see
    /// `SpecCompiler.preview`). Enough to list the first page while the rest compiles.
    let preview: @Sendable (Int) -> (service: ServiceSpec, names: [String])?
    let allowsWrites: Bool
    let allowsDeletes: Bool
    let only: [String]
    /// `--tools dynamic`.
    let dynamic: Bool
    /// Whether `--tools` was left out, so that a long list earns a hint.
    let listsDynamicHint: Bool
    let maxResultBytes: Int
    /// `--audit`.
    let audit: String?
    /// `--allow-files`.
    let allowsFilesIn: String?
    /// Whether `--stub` answers every call from the samples.
    let stubbed: Bool
    /// `--http`: where to listen and how, instead of stdio.
    let http: HTTP?
    /// `--lock`, and `--update-lock`.
    let lock: String?
    let updatesLock: Bool
    /// A line for stderr.
    let log: @Sendable (String) -> Void
    /// The next SIGINT or SIGTERM, which ends the server.
    let nextSignal: @Sendable () async -> Int32

    struct HTTP: Sendable {
        var host: String
        var port: Int
        var options: HTTPTransport.Options
    }

    /// The name of a signal, as the log says it.
    static func name(of signal: Int32) -> String { Interrupts.name(of: signal) }
}

/// The first signal a command gets, for any number of waiters, each of which may be cancelled
/// without ending the wait of the others.
final class FirstSignal: Sendable {
    private struct State {
        var signal: Int32?
        var waiters: [Int: CheckedContinuation<Int32?, Never>] = [:]
        var issued = 0
    }

    private let state = Mutex(State())

    /// Hands `signal` to every waiter, and to every later one.
    func arrive(_ signal: Int32) {
        let waiters = state.withLock { state in
            state.signal = state.signal ?? signal
            defer { state.waiters = [:] }
            return state.waiters
        }
        for waiter in waiters.values { waiter.resume(returning: signal) }
    }

    /// The signal once it arrives; nil when the waiting task is cancelled first.
    func wait() async -> Int32? {
        let id = state.withLock { state in
            state.issued += 1
            return state.issued
        }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { (waiter: CheckedContinuation<Int32?, Never>) in
                let now = state.withLock { state -> Int32?? in
                    if let signal = state.signal { return .some(signal) }
                    if _Concurrency.Task.isCancelled { return .some(nil) }
                    state.waiters[id] = waiter
                    return nil
                }
                if let now { waiter.resume(returning: now) }
            }
        } onCancel: {
            state.withLock { $0.waiters.removeValue(forKey: id) }?.resume(returning: nil)
        }
    }
}
