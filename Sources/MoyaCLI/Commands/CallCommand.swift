import ArgumentParser
import MoyaBinding
import MoyaCommandSupport
import MoyaCompiler
import MoyaHTTP
import MoyaJSONPath
import MoyaRuntime
import MoyaSpec
import MoyaStreams
import MoyaTransport
import Synchronization

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// `moya-cli call`: sends one target, live or stubbed.
struct CallCommand: CallerIsolatedCommand {
    static let configuration = CommandConfiguration(
        commandName: "call",
        _superCommandName: MoyaCommand.name,
        abstract: "Send a target's request, live or from its sample.",
        discussion: """
            Params are given as --NAME VALUE or NAME=VALUE; the second form always works, even \
            when a param's name is also one of moya-cli's options (a param called key is given \
            as key=VALUE, because --key is the TLS key). Repeat a param for an array. \
            `moya-cli call SERVICE.TARGET --help` lists the target's params. A value that breaks \
            its param's rules (minimum, maxLength, pattern, …) is refused before anything is \
            sent, exit 64, naming the param and the rule; --no-validate-args sends it anyway.

            On a terminal, JSON bodies are pretty-printed and coloured; piped or redirected, the \
            body is written byte for byte. NO_COLOR turns colour off.

            A URL instead of SERVICE.TARGET sends a request with no spec, from HTTPie's and \
            xh's request items: Header:value, name==value (query), name=value (a JSON string), \
            name:=json (any JSON value), name=@FILE and name:=@FILE (read from a file), and @FILE \
            (the body). The method goes before the URL (call POST URL, as http and xh take it) \
            or in -X, else it is POST with a body and GET without. A URL with no scheme is \
            http://. -a USER:PASSWORD sends basic auth and -A bearer -a TOKEN a bearer token, \
            both secrets. --body @- sends stdin as the body (JSON when it reads as JSON), --body \
            @FILE a file; stdin is never read unless asked. --curl with --dry-run prints the \
            request as a curl command and sends nothing. --all follows a URL's Link header. \
            --save SERVICE.TARGET writes the request into a spec as a target, where a call of \
            SERVICE will read it: the file of ./specs that declares the service, else the \
            service's file in the user spec folder ($XDG_CONFIG_HOME/moya-cli/specs, else \
            ~/.config/moya-cli/specs), or --specs FILE, made with the URL's origin as its baseURL \
            when missing (localhost and 127.0.0.1 are one origin); --record keeps the response as \
            its sample. Query and JSON items become params with their values as defaults, and a \
            credential (Authorization, Cookie, or a header, query item or member named like a \
            key, token or secret) is written as a ${SERVICE_NAME} variable, never its value. The \
            saved target sends the same request once the variable is set. --force replaces a \
            target of that name.

            --all follows a target's pages, as its paginate: says (a Link header, a next URL or a \
            cursor in the body, or page numbers), and prints the items of every page as one JSON \
            array, or one per line with --lines; at most --max-pages (25) pages, on the target's \
            origin unless --allow-cross-origin. Exit 9 when the pages stop early.

            --record [NAME] writes the live response into the spec: the target's sample, or \
            its sample NAME, with the status, the headers a client reads and the body, never a \
            secret; the rest of the file stays as it is, and the change is shown as a diff on \
            stderr. It refuses where CI is set, unless --force.

            Examples:
              moya-cli call myservice.showUser --id 1
              moya-cli call myservice.showUser id=1 --stub immediate
              moya-cli call myservice.showAccounts --sample unauthorized
              moya-cli call translator.translate --texts Hello --to de --to ja --dry-run
              moya-cli call httpbin.post --name Ann -H 'X-Trace: 1' --dry-run --json
              moya-cli call myservice.showUser --id 1 -i --retry 3
              moya-cli call github.zen -o zen.txt
              moya-cli call myservice.showUser --id 999 --record notFound
              moya-cli call myservice.showUser --help
              moya-cli call github.userRepos --all --lines
              moya-cli call httpbin.org/anything q==moya name=Ann age:=3 'Authorization:Bearer xyz'
              moya-cli call https://api.github.com/zen --save github.zen
              moya-cli call POST httpbin.org/post -a ann:pw --body @- < user.json
            """
    )

    @Argument(
        help: ArgumentHelp(
            "The target, as SERVICE.TARGET, or a URL with request items and no spec.", valueName: "service.target|url"),
        completion: .custom(CallCommand.completeTargets))
    var target: String

    @Option(
        name: [.customShort("X"), .customLong("method")],
        help: ArgumentHelp("With a URL, the method; the default is GET, or POST with a body.", valueName: "method"))
    var method: String?

    @Option(
        help: ArgumentHelp(
            "With a URL, write the request into a spec as this target, credentials as ${SERVICE_…} variables.",
            valueName: "service.target"))
    var save: String?

    @Option(
        name: [.customShort("a"), .customLong("auth")],
        help: ArgumentHelp(
            "With a URL: USER:PASSWORD for basic auth, or a token with -A bearer; a secret, saved as a variable.",
            valueName: "credentials"))
    var auth: String?

    @Option(
        name: [.customShort("A"), .customLong("auth-type")],
        help: ArgumentHelp("With a URL: how -a is sent, basic (the default) or bearer.", valueName: "type"))
    var authType: String?

    @Option(
        help: ArgumentHelp(
            "never, immediate or delayed=SECONDS. Defaults to the spec's stub, else never.", valueName: "behavior"))
    var stub: String?

    @Option(help: ArgumentHelp("Answer with the named sample; implies --stub immediate.", valueName: "name"))
    var sample: String?

    @Option(help: ArgumentHelp("Use one of the service's environments.", valueName: "name"))
    var env: String?

    @Option(
        name: [.customShort("H"), .customLong("header")],
        help: ArgumentHelp("Add a header, 'Name: value'; repeatable.", valueName: "header"))
    var headers: [String] = []

    @Flag(
        name: [.customShort("f"), .customLong("form")],
        help: "With a URL: send name=value items as a form, urlencoded, or multipart with name@FILE items.")
    var form = false

    @Flag(help: "With a URL: send the form as multipart/form-data, with or without name@FILE items (implies --form).")
    var multipart = false

    @Flag(name: .customLong("dry-run"), help: "Print the resolved request and send nothing.")
    var dryRun = false

    @Flag(help: "With --dry-run, print the request as one JSON object.")
    var json = false

    @Flag(name: .customLong("show-secrets"), help: "Print secrets instead of ••••.")
    var showSecrets = false

    @Flag(help: "With --record [NAME], record even where the CI variable is set; with --save, replace a target.")
    var force = false

    @Flag(
        name: .customLong("no-validate-args"),
        help: "Send params that break their rules (minimum, pattern, …) instead of refusing them, to test a server.")
    var noValidateArgs = false

    @Flag(
        name: .customShort("v"),
        help: "Log the request and response to stderr; -vv adds their bodies.")
    var verbosity: Int

    @Flag(
        help: ArgumentHelp(
            "When a stream ends before a bound, ask for it again after its retry: time (3 s), with Last-Event-ID, and go on."
        ))
    var resume = false

    @Flag(
        help: ArgumentHelp(
            "For a WebSocket target: send each line of stdin as a message, print each message; the default on a terminal without a script."
        ))
    var interactive = false

    @Flag(help: "Log the request as a runnable curl command to stderr.")
    var curl = false

    @Option(
        name: .customLong("key-path"),
        help: ArgumentHelp(
            "Print only the values at this JSON path of the body, such as $.items[0].name; a.b.0.c also works.",
            valueName: "path"))
    var keyPaths: [String] = []

    /// The one `--key-path`; `validate` refuses more than one rather than keep the last.
    var keyPath: String? { keyPaths.last }

    @Option(
        help: ArgumentHelp(
            "Send this body instead of the target's, or a URL's body: inline text, @FILE, or @- for stdin. JSON for a JSON target.",
            valueName: "body"))
    var body: String?

    @Option(
        name: .customLong("set"),
        help: ArgumentHelp(
            "Set a value in the JSON body: PATH=TEXT for a string, PATH:=JSON for any other value, such as data.tags[0]=x or data.count:=3; repeatable.",
            valueName: "path=value"))
    var fields: [String] = []

    @OptionGroup(title: "Output") var outputOptions: OutputOptions

    @OptionGroup(title: "Pages") var pages: PageOptions

    @OptionGroup(title: "Network") var network: NetworkOptions

    @OptionGroup var specOptions: SpecOptions

    @Argument(
        parsing: .allUnrecognized,
        help: ArgumentHelp("The target's params: --NAME VALUE or NAME=VALUE.", valueName: "params"))
    var params: [String] = []

    /// Completes `SERVICE.TARGET` from the specs the command line (or the environment) names.
    @Sendable static func completeTargets(_ words: [String], _: Int, _ prefix: String) -> [String] {
        SpecOptions.completions(words, prefix) { service in service.targets.map { "\(service.name).\($0.name)" } }
    }

    /// The `--specs` paths among a command line's words, for completion.
    static func specPaths(in words: [String]) -> [String] {
        var paths: [String] = []
        var index = 0
        while index < words.count {
            if words[index] == "--specs", index + 1 < words.count {
                paths.append(words[index + 1])
                index += 1
            } else if words[index].hasPrefix("--specs=") {
                paths.append(String(words[index].dropFirst("--specs=".count)))
            }
            index += 1
        }
        return paths
    }

    /// Whether a command line is a `call` that may send a request, read from the words
    /// alone, before they are parsed: a stub, a sample, a dry run or help sends nothing, nor
    /// does a call of a service whose spec says `stub:`. Any word that reads `SERVICE.NAME`
    /// is taken for the target here, since the words are not parsed yet. A recording is
    /// always live.
    static func mayGoLive(_ arguments: [String], environment: Environment) -> Bool {
        guard arguments.first == "call" else { return false }
        let options = arguments.dropFirst().prefix { $0 != "--" }
        let stubbed = options.contains { word in
            ["--stub", "--sample", "--dry-run", "-h", "--help", "--version"].contains {
                word == $0 || word.hasPrefix($0 + "=")
            }
        }
        guard !stubbed else { return false }
        // A recording is always live.
        if options.contains(where: { $0 == "--record" || $0.hasPrefix("--record=") }) { return true }
        let library = SpecLibrary(
            searchPaths: SpecLibrary.searchPaths(specs: specPaths(in: Array(options)), environment: environment),
            compiler: SpecCompiler(environment: environment))
        return !options.contains { word in
            guard !word.hasPrefix("-"), !word.contains("/"), let dot = word.firstIndex(of: "."), dot != word.startIndex
            else { return false }
            return library.declaresStub(service: String(word[..<dot]))
        }
    }

    /// The request a call with no spec sends: `URL ITEM…`, or `METHOD URL ITEM…` as HTTPie and
    /// xh take it (`call POST httpbin.org/post name=Ann`); nil for a call of `SERVICE.TARGET`.
    var adHoc: (method: String?, url: String, items: [String])? {
        if let url = AdHocRequest.url(in: target) { return (method, url, params) }
        guard AdHocRequest.isMethod(target), let first = params.first,
            !first.hasPrefix("-"), let url = AdHocRequest.url(in: first)
        else { return nil }
        return (target, url, Array(params.dropFirst()))
    }

    /// The URL a call with no spec sends to, nil for a call of `SERVICE.TARGET`.
    var url: String? { adHoc?.url }

    func validate() throws {
        if url == nil {
            if save != nil {
                throw ValidationError("--save goes with a URL: moya-cli call URL [ITEM...] --save SERVICE.TARGET")
            }
            if method != nil { throw ValidationError("-X goes with a URL; a target's method is in its spec") }
            if form { throw ValidationError("--form goes with a URL; a target's body is in its spec") }
            if multipart { throw ValidationError("--multipart goes with a URL; a target's body is in its spec") }
            if auth != nil || authType != nil {
                throw ValidationError(
                    "-a and -A go with a URL; a target's auth is in its spec (a param named auth is given as "
                        + "auth=VALUE)")
            }
        } else if let method, AdHocRequest.url(in: target) == nil {
            throw ValidationError("the method is given twice, \(target) and -X \(method); give one")
        }
        if authType != nil, auth == nil { throw ValidationError("-A says how -a is sent, and goes with -a") }
        if json && !dryRun { throw ValidationError("--json goes with --dry-run") }
        if json && curl { throw ValidationError("--json and --curl are two forms of --dry-run's request; give one") }
        if keyPaths.count > 1 {
            throw ValidationError(
                "--key-path takes one path, and was given \(keyPaths.count): a JSON path can join them, as "
                    + "$['a','b'] or $..name")
        }
        if keyPath != nil && outputOptions.output != nil {
            throw ValidationError("--key-path and --output cannot go together")
        }
        if let keyPath, keyPath.hasPrefix("$") {
            do {
                _ = try JSONPath(parsing: keyPath)
            } catch {
                throw ValidationError("--key-path '\(keyPath)': \(error.description)")
            }
        }
    }

    func execute() async throws {
        let context = CommandContext.current
        var (service, spec, given): (ServiceSpec, TargetSpec, [String])
        if let adHoc {
            (service, spec, given) = try AdHocCall(command: self, words: adHoc).load()
        } else {
            (service, spec) = try specOptions.loadTarget(target, lazily: true)
            given = params
        }
        var words = given
        let record = try RecordRequest.take(from: &words)
        try check(record)
        try checkPaging(spec, of: service, record: record)
        let arguments = try CallArguments.parse(words, for: spec)
        try CallArguments.checkShadowed(arguments, for: spec)
        // A URL's `--body` is its request's body, read once (`AdHocCall`); `--set` still edits it.
        var options = CallOptions(
            arguments: arguments, environment: env, sample: sample, body: try bodyEdit(whole: url == nil))
        options.validatesArguments = !noValidateArgs
        let extraHeaders = try CallArguments.headers(headers)
        let overrides = record == nil ? try overrides() : network.overrides(stub: .never)
        // The secrets a sent call needs, read from their sources; a stub reads none.
        if url == nil {
            do {
                (service, spec) = try specOptions.secretVault().bind(
                    service, spec, overrides: overrides, environment: env)
            } catch {
                throw error
            }
        }
        let prepared: PreparedCall
        do {
            prepared = try PreparedCall.prepare(
                spec, of: service, with: options, headers: extraHeaders, overrides: overrides,
                showingSecrets: showSecrets, printsRequest: dryRun || verbosity > 0 || curl)
        } catch {
            throw error
        }
        if dryRun {
            let printer: RequestPrinter
            do {
                printer = RequestPrinter(try prepared.printable())
            } catch {
                throw error
            }
            context.line(curl ? CURLCommand(printer.request).text : json ? printer.json : printer.text)
            return
        }
        // The spec's timeout and retry go on the request (see `SpecCall`), so the session
        // needs nothing from the spec but what is secret.
        let secrets = prepared.redactor
        var configuration = network.configuration(
            environment: context.environment,
            willRetry: { [target] attempt, delay, reason in
                // A retry's reason is the transport's text, which may echo a secret.
                let reason = secrets.scrub(reason)
                context.errorLine(
                    "moya-cli: \(target): \(reason); retrying in \(FixedPoint.format(delay, places: 1)) s (retry \(attempt))"
                )
            })
        // -vv logs the response body, --record writes it and --all reads each page's items, so
        // it is held, but never without bound.
        if verbosity >= 2 || record != nil || pages.all { configuration.maximumBodyBytes = BodyOutput.limit }
        // One request needs one event loop, which also runs the request's async work; a loop
        // per core, and the thread pool, would only slow the start.
        configuration.eventLoopThreads = 1
        let session = Session(configuration: configuration)
        // A call the command line or the spec stubs never starts the transport.
        if prepared.policy.stub == .never { session.prepare() }
        do {
            guard !pages.all else {
                try await sendPages(
                    spec, of: service, options: options, headers: extraHeaders, session: session,
                    overrides: overrides)
                return await CommandContext.current.release(session)
            }
            try await send(
                prepared, of: service, stream: spec.stream, session: session, overrides: overrides,
                record: record.map { ($0, spec) }
            ) { lastEventID in
                // A resumed stream's request is the first one's, with the last event ID it read
                // (WHATWG), when that is one a header can carry.
                var headers = extraHeaders
                if let lastEventID, lastEventID.unicodeScalars.allSatisfy({ $0.value >= 0x20 && $0.value != 0x7F }) {
                    headers.update(name: "Last-Event-ID", value: lastEventID)
                }
                return try PreparedCall.prepare(
                    spec, of: service, with: options, headers: headers, overrides: overrides,
                    showingSecrets: showSecrets, printsRequest: verbosity > 0 || curl)
            }
        } catch {
            await CommandContext.current.release(session)
            throw error
        }
    }

    /// Sends the prepared call and presents what came back.
    private func send(
        _ prepared: PreparedCall, of service: ServiceSpec, stream: StreamSpec?, session: Session,
        overrides: CallPolicy.Overrides, record: (request: RecordRequest, target: TargetSpec)?,
        resumed: (_ lastEventID: String?) throws -> PreparedCall
    ) async throws {
        let context = CommandContext.current
        let call = prepared.call
        let resolved = call.target
        let behavior = prepared.policy.stub
        if network.insecure, behavior == .never {
            context.errorLine(
                "moya-cli: warning: --insecure: the server's certificate is not verified; "
                    + "anyone between you and it can read and change this traffic")
        }

        if record != nil, Self.savesItself(resolved.task) {
            throw UsageError(
                "\(resolved.qualifiedName): --record keeps the body in the spec, and this target downloads it to a file"
            )
        }
        let destination = outputOptions.output.map { path in URL(fileURLWithPath: path) }
        let bar =
            showsProgress(for: resolved, stubbed: behavior != .never) ? ProgressBar(write: context.writeError) : nil
        var delivery = Delivery(waiting: { start in await Interrupts.cancelling(start) })
        if let bar { delivery.progress = { bar.update($0) } }
        if let destination, behavior == .never { delivery.saveTo = { _, _ in destination } }
        let renderer = ResponseRenderer(options: outputOptions, context: context)
        // A live body that is not saved to a file goes out as it arrives: straight through
        // when printed raw, else held up to a limit (see `BodyOutput`). A body that may be
        // refused for a stale login token is held, so that the replay alone is printed.
        // A stream's events (a target's `stream:`, or a body whose `Content-Type` is one) print
        // as they arrive, whatever else holds the body; `--events raw` passes its bytes on.
        // `--record` of a declared stream keeps its events as they print, to write them as a
        // stream sample; any other body it records is held whole.
        let events = EventOutput(context: context, format: outputOptions.events, renderer: renderer)
        let readsEvents = outputOptions.events != .raw && keyPath == nil
        let recording = record != nil && stream != nil && readsEvents ? StreamRecording(forwarding: events) : nil
        let holdsOutput =
            behavior == .never && destination == nil && !Self.savesItself(resolved.task)
            && (verbosity < 2 || stream != nil) && (record == nil || recording != nil)
        let streams = !renderer.pretty && keyPath == nil && resolved.login == nil && recording == nil
        let client = client(for: service, session: session, overrides: overrides)
        var attempt = prepared
        var resuming: EventReader.Summary?
        var delivered: Delivered
        // A WebSocket says its script, or, asked or on a terminal without one, what is typed.
        let typed =
            stream?.kind == .websocket && (interactive || (context.inputIsTerminal && resolved.script.isEmpty))
            ? Self.typed(context.inputLines) : nil
        while true {
            if holdsOutput {
                delivery.sink = { [resuming, script = resolved.script] in
                    let body = BodyOutput(context: context, renderer: renderer, streaming: streams)
                    return readsEvents
                        ? EventReader(
                            for: stream, otherwise: body, sink: recording ?? events, resuming: resuming,
                            script: script, conversation: typed) : body
                }
            }
            delivered = await client.deliver(attempt, of: service, delivery)
            guard resume, delivered.signal == nil, let reader = delivered.sink as? EventReader,
                let summary = reader.finish(), summary.mayResume
            else { break }
            // `--resume`: the stream ended before a bound, so it is asked for again after its
            // `retry:` time (3 s until it sets one), with `Last-Event-ID`, and goes on counting.
            if case .success(let response) = delivered.result, response.statusCode == 204 { break }
            if case .failure(.statusCode) = delivered.result { break }
            resuming = summary
            let delay = Double(summary.reconnectionTime ?? 3000) / 1000
            if verbosity > 0 {
                context.errorLine(
                    "moya-cli: \(resolved.qualifiedName): the stream ended after \(summary.events) events; "
                        + "resuming in \(FixedPoint.format(delay, places: 1)) s")
            }
            attempt = try resumed(summary.lastEventID)
            delivery.waiting = { start in
                await Interrupts.cancelling {
                    do {
                        try await _Concurrency.Task.sleep(for: .milliseconds(Int(delay * 1000)))
                    } catch {
                        return .failure(.underlying(NetworkError(.cancelled, "the request was cancelled"), nil))
                    }
                    return await start()
                }
            }
        }
        let (result, signal, redactor) = (delivered.result, delivered.signal, delivered.redactor)
        let reader = delivered.sink as? EventReader
        let output = (reader?.otherwise ?? delivered.sink) as? BodyOutput
        await context.release(session)
        if let reader, let summary = reader.finish() {
            if let record, let recording {
                try recordStream(
                    summary, recording, result: result, signal: signal, record: record, service: service,
                    redactor: redactor)
            }
            try finishStream(summary, result: result, signal: signal, target: resolved, redactor: redactor)
            return
        }
        if let record {
            // A body the stream's reader passed on was held for the record.
            try self.record(
                result.mapAnswered { output?.held($0) ?? $0 }, record.request, target: record.target,
                service: service, redactor: redactor)
        }
        switch result {
        case .success(let streamed):
            if output?.hasStreamed == true { return }
            let response = output?.held(streamed) ?? streamed
            // A stubbed stream (a sample's `events:`) is read as a live one is, its bounds and all.
            if behavior != .never, destination == nil, readsEvents,
                let summary = EventReader(for: stream, otherwise: nil, sink: events).read(whole: response)
            {
                try finishStream(summary, result: result, signal: signal, target: resolved, redactor: redactor)
                return
            }
            if let destination {
                if renderer.include { context.writeOut(renderer.head(of: response)) }
                if behavior != .never { try save(response.data, to: destination.path, target: resolved) }
                return
            }
            guard let keyPath else {
                context.writeOut(renderer.render(response))
                return
            }
            if renderer.include { context.writeOut(renderer.head(of: response)) }
            try writeValue(at: keyPath, of: response, target: resolved)
        case .failure(let error):
            bar?.clear()
            if case .statusCode(let response) = error, destination == nil, output?.hasStreamed != true {
                context.writeOut(renderer.render(output?.held(response) ?? response))
            }
            let failure = SendFailure(error: error, target: resolved, redactor: redactor)
            if let signal, failure.kind == .network(.cancelled) {
                throw Interrupted(
                    "\(resolved.qualifiedName): the request was cancelled by \(Interrupts.name(of: signal))",
                    signal: signal)
            }
            throw failure
        }
    }

    /// The conversation of `call --interactive`: each line of `lines` sent as a text message.
    /// Their end sends nothing more, and the messages go on being read to the stream's bounds
    /// or the server's close, so that the answers to the last lines are not lost.
    private static func typed(_ lines: @escaping @Sendable () -> AsyncStream<String>) -> EventReader.Conversation {
        { socket, _ in
            do {
                for await line in lines() { try await socket.send(.text(line)) }
            } catch {
                if !_Concurrency.Task.isCancelled { return "sending a line: \(error)" }
            }
            return nil
        }
    }

    /// Ends a call whose response was read as events, which were printed as they came: `-v`
    /// prints how the stream ended. A stream ended by a default bound, not the target's, fails.
    private func finishStream(
        _ summary: EventReader.Summary, result: Result<Response, MoyaError>, signal: Int32?, target: SpecTarget,
        redactor: Redactor
    ) throws {
        if verbosity > 0 { CommandContext.current.errorLine(EventOutput.summary(summary)) }
        switch result {
        case .success(let response):
            let server = NetworkError.address(of: response.request?.url) ?? "the server"
            if let failure = EventOutput.failure(summary, target: target.qualifiedName, server: server) {
                throw failure
            }
        case .failure(let error):
            let failure = SendFailure(error: error, target: target, redactor: redactor)
            if let signal, failure.kind == .network(.cancelled) {
                throw Interrupted(
                    "\(target.qualifiedName): the stream was cancelled by \(Interrupts.name(of: signal)) after "
                        + (summary.events == 1 ? "1 event" : "\(summary.events) events"),
                    signal: signal)
            }
            throw failure
        }
    }

    /// The client a call sends through: the command line's policy, secrets, logins and log.
    func client(for service: ServiceSpec, session: Session, overrides: CallPolicy.Overrides) -> SpecClient {
        let context = CommandContext.current
        return SpecClient(
            services: [service], environment: env, overrides: overrides, session: session, showSecrets: showSecrets,
            logins: Logins(environment: context.environment, usesCache: !network.noTokenCache),
            logOptions: Self.logOptions(verbosity: verbosity).union(curl ? .formatRequestAscURL : []),
            log: { context.errorLine($0) })
    }

    /// Refuses `--record` beside what it cannot go with, and in CI without `--force`.
    private func check(_ record: RecordRequest?) throws {
        guard record != nil else {
            if force, save == nil { throw UsageError("--force goes with --record or --save") }
            return
        }
        let others = [
            stub.map { _ in "--stub" }, sample.map { _ in "--sample" }, dryRun ? "--dry-run" : nil,
            outputOptions.output.map { _ in "--output" },
        ].compactMap { $0 }
        if let other = others.first {
            throw UsageError(
                "--record writes the live response into the spec, and cannot go with \(other)")
        }
        try RecordRequest.checkAllowed(force: force, environment: CommandContext.current.environment)
    }

    /// Writes the response into the target's sample. The default sample takes only a response
    /// that passes the target's validation; a named one takes any, such as a 404 to stub.
    /// Records a stream's events as the target's stream sample, each with the time before it,
    /// when the stream ended as asked: by the server or a bound the target gives.
    private func recordStream(
        _ summary: EventReader.Summary, _ recording: StreamRecording, result: Result<Response, MoyaError>,
        signal: Int32?, record: (request: RecordRequest, target: TargetSpec), service: ServiceSpec,
        redactor: Redactor
    ) throws {
        let name = "\(service.name).\(record.target.name)"
        guard signal == nil, summary.failure == nil, !summary.byDefault else {
            CommandContext.current.errorLine(
                "moya-cli: \(name): the stream did not end as asked, so it is not recorded")
            return
        }
        guard let events = recording.events else {
            CommandContext.current.errorLine(
                "moya-cli: \(name): the stream sent more than \(StreamRecording.maximumEvents) events or "
                    + "\(ByteCount.format(StreamRecording.maximumBytes)) of data, more than a sample holds, so it is "
                    + "not recorded; give the target stream: { maxEvents: … }")
            return
        }
        try self.record(
            result, record.request, target: record.target, service: service, redactor: redactor, events: events)
    }

    private func record(
        _ result: Result<Response, MoyaError>, _ record: RecordRequest, target: TargetSpec, service: ServiceSpec,
        redactor: Redactor, events: [RecordedSample.Event]? = nil
    ) throws {
        let response: Response
        switch result {
        case .success(let value): response = value
        case .failure(.statusCode(let value)) where record.sample != nil: response = value
        case .failure(.statusCode(let value)):
            CommandContext.current.errorLine(
                "moya-cli: \(service.name).\(target.name): status \(value.statusCode) fails the target's "
                    + "validation, so it is not recorded as the default sample; name a sample: --record NAME")
            return
        case .failure: return
        }
        // A call compiles only the target it sends; the logins that read a token from it are
        // looked for in the whole file.
        let compiler = specOptions.compiler()
        let recorder = SampleRecorder(
            check: EditCheck(compiler), services: [(try? compiler.compile(file: service.file)) ?? service])
        try SpecTrust(environment: CommandContext.current.environment).keeping(writing: [service.file]) {
            () throws in
            try RecordRequest.record(
                response, redactor: redactor, target: target, of: service, named: record.sample,
                recorder: recorder, context: CommandContext.current, events: events)
        }
    }

    /// Whether a task writes its body to its own destination, as a download does.
    static func savesItself(_ task: MoyaHTTP.Task) -> Bool {
        switch task {
        case .downloadDestination, .downloadParameters: true
        default: false
        }
    }

    /// Whether a transfer shows a progress bar: a live download or `--output`, with stderr on
    /// a terminal.
    func showsProgress(for target: SpecTarget, stubbed: Bool) -> Bool {
        guard CommandContext.current.errorIsTerminal, !stubbed else { return false }
        return outputOptions.output != nil || Self.savesItself(target.task)
    }

    /// Writes a stubbed body to `--output` as a live one is written: see `PendingFile`.
    func save(_ data: Data, to path: String, target: SpecTarget) throws {
        do {
            try PendingFile.write(Array(data), to: path)
        } catch {
            throw FileFailure.unwritable("\(target.qualifiedName): \(error.message)")
        }
    }

    /// What `-v` (method, URL and headers) and `-vv` (bodies too) log, for `call` and `run`.
    static func logOptions(verbosity: Int) -> NetworkLoggerPlugin.LogOptions {
        var options: NetworkLoggerPlugin.LogOptions = []
        if verbosity >= 1 { options.formUnion(.default) }
        if verbosity >= 2 { options.formUnion(.verbose) }
        return options
    }

    /// Prints the values `keyPath` reaches, one per line: a string bare, anything else as
    /// JSON. A path starting with `$` is a JSON path, as checks use; any other is Moya's
    /// dotted key path, `a.b.0.c`.
    func writeValue(at keyPath: String, of response: Response, target: SpecTarget) throws {
        let json: JSONValue
        do {
            json = try response.mapJSON()
        } catch {
            throw KeyPathMissing(
                "\(target.qualifiedName): --key-path needs a JSON body, and the response is not JSON")
        }
        let values: [JSONValue]
        // `validate()` has parsed a JSON path already.
        if keyPath.hasPrefix("$"), let path = try? JSONPath(parsing: keyPath) {
            values = path.values(in: json)
        } else {
            values = json.value(atKeyPath: keyPath).map { [$0] } ?? []
        }
        guard !values.isEmpty else {
            throw KeyPathMissing(
                "\(target.qualifiedName): the response has no value at key path '\(keyPath)'")
        }
        for value in values {
            if case .string(let text) = value {
                CommandContext.current.line(text)
            } else {
                CommandContext.current.line(value.serialized(escapeSlashes: false))
            }
        }
    }

    /// `--body` and `--set`: the body read from where `--body` says, the paths parsed.
    func bodyEdit(whole: Bool = true) throws -> BodyEdit? {
        let body = whole ? self.body : nil
        guard body != nil || !fields.isEmpty else { return nil }
        var edit = BodyEdit()
        do {
            edit.fields = try fields.map { field throws(JSONEditError) in try BodyEdit.field(field) }
        } catch {
            throw UsageError(error.description)
        }
        guard let body else { return edit }
        if body == "@-" {
            edit.whole = Data(CommandContext.current.readInput())
        } else if body.hasPrefix("@") {
            let path = String(body.dropFirst())
            guard let data = FileManager.default.contents(atPath: path) else {
                throw UsageError("--body: cannot read \(path)")
            }
            edit.whole = data
        } else {
            edit.whole = Data(body.utf8)
        }
        return edit
    }

    /// What the command line overrides of the spec's policy: `--sample` stubs at once unless
    /// `--stub` says how.
    func overrides() throws -> CallPolicy.Overrides {
        let behavior = try stub.map { text throws in try Self.parseStub(text) }
        return network.overrides(stub: behavior ?? (sample != nil ? .immediate : nil))
    }

    /// A `--stub` value: `never`, `immediate` or `delayed=SECONDS`.
    static func parseStub(_ stub: String) throws -> StubBehavior {
        switch stub {
        case "never": return .never
        case "immediate": return .immediate
        default:
            if stub.hasPrefix("delayed="), let seconds = Double(stub.dropFirst("delayed=".count)),
                Seconds.isValidDelay(seconds)
            {
                return .delayed(seconds: seconds)
            }
            throw UsageError(
                "--stub takes never, immediate or delayed=SECONDS (0 to \(Int(Seconds.maximum))), not '\(stub)'")
        }
    }
}
