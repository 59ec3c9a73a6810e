import MoyaCommandSupport
import MoyaHTTP
import MoyaMCP
import MoyaMCPProtocol
import MoyaRuntime
import MoyaSpec

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `moya-cli mcp` once its command line is read: the tool server on stdin and stdout.
enum MCPServing {
    /// How serving ended.
    enum Ending: Sendable {
        case closed
        case signal(Int32)
        case failed(any Error)
        /// The specs loaded; serving goes on.
        case loaded
    }

    /// Serves until stdin closes or a signal comes. The specs compile in the background: a
    /// large spec's first page of tools is listed from a preview of its first targets
    /// meanwhile, and calls wait for the rest. A spec problem found then ends the server, as it
    /// would have before it started.
    static func serve(_ invocation: MCPInvocation) async throws {
        let exposure = ToolExposure(
            allowsWrites: invocation.allowsWrites, allowsDeletes: invocation.allowsDeletes, only: invocation.only)
        let audit: AuditLog?
        do {
            audit = try invocation.audit.map { path throws(AuditLog.OpenError) in try AuditLog(path: path) }
        } catch {
            throw FileFailure.unwritable(error.description)
        }
        var options = ToolServer.Options()
        options.dynamic = invocation.dynamic
        options.maxResultBytes = invocation.maxResultBytes
        options.allowsFilesIn = invocation.allowsFilesIn
        options.stubbed = invocation.stubbed
        // With a lock, nothing is listed before the whole catalog has been held to it.
        let preview = (invocation.lock == nil ? invocation.preview(2 * options.pageSize) : nil).map { preview in
            ToolCatalog(
                services: [preview.service], exposure: exposure, allowsFilesIn: invocation.allowsFilesIn,
                reserving: preview.names)
        }
        let server = ToolServer(exposure: exposure, options: options, audit: audit, preview: preview)
        let listener: HTTPTransport?
        if let http = invocation.http {
            do {
                listener = try await HTTPTransport(
                    server: server, host: http.host, port: http.port, options: http.options)
            } catch {
                throw ListenFailure(
                    "cannot listen on \(ServeCommand.authority(http.host, http.port)): \(ServeCommand.reason(error))")
            }
        } else {
            listener = nil
        }

        let ending: Ending = await withTaskGroup(of: Ending.self) { group in
            if listener == nil {
                group.addTask {
                    await LineTransport().serve(server.reply)
                    return .closed
                }
            }
            group.addTask { .signal(await invocation.nextSignal()) }
            group.addTask {
                do {
                    let loaded = server.prepare(try invocation.load())
                    if let lock = invocation.lock { try check(loaded.catalog, lock: lock, invocation) }
                    server.serve(loaded)
                    let catalog = loaded.catalog
                    try announce(catalog, invocation, port: listener?.port)
                    return .loaded
                } catch {
                    server.failLoading()
                    return .failed(error)
                }
            }
            // Every child's end is heard, the load's too: stdin closed before the specs were
            // compiled still ends with their problem, if they have one. The first of stdin
            // closing and a signal is the one reported.
            var first: Ending?
            var failure: (any Error)?
            while let next = await group.next() {
                switch next {
                case .loaded: continue
                case .failed(let error): failure = error
                case .closed, .signal: if first == nil { first = next }
                }
                group.cancelAll()
            }
            return failure.map(Ending.failed) ?? first ?? .closed
        }
        await listener?.stop()
        switch ending {
        case .signal(let number): invocation.log("moya-cli: \(MCPInvocation.name(of: number)): stopping")
        case .failed(let error): throw error
        case .closed, .loaded: break
        }
    }

    /// `--lock`: the catalog held to the lock, or the lock written.
    static func check(_ catalog: ToolCatalog, lock: String, _ invocation: MCPInvocation) throws {
        do {
            switch try ToolLock.apply(catalog, path: lock, update: invocation.updatesLock) {
            case .written(let count): invocation.log("moya-cli: mcp: wrote the lock of \(count) tools to \(lock)")
            case .updated(let count): invocation.log("moya-cli: mcp: updated \(lock): \(count) changes accepted")
            case .matched: break
            }
        } catch {
            switch error {
            case .file(let message): throw FileFailure.unwritable(message)
            case .changed(let changes):
                let shown = changes.prefix(5).joined(separator: "; ")
                let more = changes.count > 5 ? "; and \(changes.count - 5) more" : ""
                throw InvalidDocument(
                    "the tools differ from --lock \(lock): \(shown)\(more); start with --update-lock to accept them")
            }
        }
    }

    /// Checks `--only` against the loaded catalog, and says on stderr what is offered.
    static func announce(_ catalog: ToolCatalog, _ invocation: MCPInvocation, port: Int?) throws {
        let unmatched = invocation.only.filter { pattern in
            !catalog.all.contains { fnmatch(pattern, $0.fullName, 0) == 0 }
        }
        if !unmatched.isEmpty {
            throw UsageError(CheckPlan.UnmatchedPatterns(patterns: unmatched).description)
        }
        let left = catalog.all.count - catalog.exposed.count
        var place = "on stdio"
        if let http = invocation.http, let port {
            let scheme = http.options.tls == nil ? "http" : "https"
            place = "on \(scheme)://\(ServeCommand.authority(http.host, port))/mcp"
        }
        invocation.log(
            "moya-cli: mcp: \(catalog.exposed.count) of \(catalog.all.count) targets and flows as tools \(place)"
                + (left > 0 ? " (\(left) left out; -h says which flags add them)" : ""))
        if invocation.listsDynamicHint, catalog.exposed.count > 64 {
            invocation.log(
                "moya-cli: hint: \(catalog.exposed.count) tools is more than many clients take; "
                    + "--tools dynamic offers three that search, describe and call them")
        }
    }
}
