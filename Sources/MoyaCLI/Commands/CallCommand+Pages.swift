import MoyaBinding
import MoyaCommandSupport
import MoyaHTTP
import MoyaRuntime
import MoyaSpec
import MoyaTransport

extension CallCommand {
    /// `--all`'s refusals: what cannot go with following pages.
    func checkPaging(_ target: TargetSpec, of service: ServiceSpec, record: RecordRequest?) throws {
        guard pages.all else { return }
        let others = [
            record.map { _ in "--record" }, outputOptions.output.map { _ in "--output" },
            keyPath.map { _ in "--key-path" }, outputOptions.include ? "--include" : nil,
            save.map { _ in "--save" },
        ].compactMap { $0 }
        if let other = others.first {
            throw UsageError("--all prints the items of every page, and cannot go with \(other)")
        }
        guard target.pagination != nil else {
            throw UsageError(
                "\(service.name).\(target.name) has no paginate:, so --all has no pages to follow")
        }
    }

    /// Sends the target's pages, as `--all` asks, printing each page's items as it arrives:
    /// a JSON array, or JSON lines with `--lines`. Whatever stops the pages, what was printed
    /// stays whole: the array is closed before the error line. The caller releases `session`.
    func sendPages(
        _ target: TargetSpec, of service: ServiceSpec, options: CallOptions, headers: HTTPHeaders,
        session: Session, overrides: CallPolicy.Overrides
    ) async throws {
        let context = CommandContext.current
        let client = client(for: service, session: session, overrides: overrides)
        let lines = pages.lines
        var printed = 0
        if !lines { context.writeOut(Array("[".utf8)) }
        let end = await client.pages(
            service, target, with: options, headers: headers, limits: pages.limits,
            delivery: Delivery(waiting: { start in await Interrupts.cancelling(start) })
        ) { page in
            // One write per page: items are many and small.
            var bytes: [UInt8] = []
            for item in page.items {
                if !lines { bytes += (printed == 0 ? "\n  " : ",\n  ").utf8 }
                bytes += item.serialized(escapeSlashes: false).utf8
                if lines { bytes.append(UInt8(ascii: "\n")) }
                printed += 1
            }
            if !bytes.isEmpty { context.writeOut(bytes) }
        }
        if !lines { context.writeOut(Array((printed == 0 ? "]\n" : "\n]\n").utf8)) }
        let name = "\(service.name).\(target.name)"
        switch end {
        case .last:
            return
        case .limited(let count):
            context.errorLine(
                "moya-cli: \(name): stopped after \(count) page\(count == 1 ? "" : "s") (--max-pages), and there are more"
            )
        case .failed(let page, let prepared, let delivered):
            guard case .failure(let error) = delivered.result else { return }
            let resolved = prepared.call.target
            let failure = SendFailure(error: error, target: resolved, redactor: delivered.redactor)
            if let signal = delivered.signal, failure.kind == .network(.cancelled) {
                let message = "\(name): the request was cancelled by \(Interrupts.name(of: signal))"
                throw Interrupted(Self.onPage(page, message, name: name), signal: signal)
            }
            throw FailureSummary(Self.onPage(page, failure.message, name: name), of: failure)
        case .stopped(let failure, let redactor):
            throw PagingStopped("\(name): \(redactor.scrub(failure.description))")
        case .invalid(let failure):
            throw failure
        }
    }

    /// `message`, which begins with the target's name, saying which page it is about.
    static func onPage(_ page: Int, _ message: String, name: String) -> String {
        guard message.hasPrefix(name + ": ") else { return "page \(page): " + message }
        return name + ": page \(page): " + message.dropFirst(name.count + 2)
    }
}
