import MoyaBinding
import MoyaHTTP
import MoyaJSONPath
import MoyaSpec

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

extension SpecClient {
    /// How far pages are followed.
    public struct PageLimits: Sendable {
        /// The most pages sent (`--max-pages`, 25 by default, as Restish's).
        public var maxPages: Int
        /// Whether a next URL may lead off the target's origin (`--allow-cross-origin`).
        public var allowsCrossOrigin: Bool
        /// The most bytes the pages' bodies may come to together, for a caller that holds
        /// them all (a check's `pages:`); nil for one that hands each on (`call --all`).
        public var maxTotalBytes: Int? = nil

        /// The default: 25 pages, Restish's, on the target's origin only.
        public static let defaultMaxPages = 25

        /// Limits of `maxPages` pages, on the target's origin unless `allowsCrossOrigin`.
        public init(
            maxPages: Int = PageLimits.defaultMaxPages, allowsCrossOrigin: Bool = false, maxTotalBytes: Int? = nil
        ) {
            self.maxPages = maxPages
            self.allowsCrossOrigin = allowsCrossOrigin
            self.maxTotalBytes = maxTotalBytes
        }
    }

    /// One page sent and read.
    public struct DeliveredPage: Sendable {
        /// Its number, from 1.
        public var number: Int
        /// The call that asked for it.
        public var prepared: PreparedCall
        /// Its response, which passed validation.
        public var response: Response
        /// Its items, in order.
        public var items: [JSONValue]
        /// What may be printed of its exchange.
        public var redactor: Redactor
    }

    /// How a walk through pages ended.
    public enum PagesEnd: Sendable {
        /// The last page came: it had no next.
        case last(pages: Int)
        /// `maxPages` pages came, and the last of them had a next.
        case limited(pages: Int)
        /// A page's request failed, or its response failed validation; `delivered` says how.
        case failed(page: Int, prepared: PreparedCall, delivered: Delivered)
        /// A page could not be read, or its next was refused; `redactor` masks what the
        /// failure quotes of the server.
        case stopped(PagingFailure, redactor: Redactor)
        /// A page's request could not be made.
        case invalid(SendFailure)
    }

    /// Sends `target` of `service` with `options` and follows its pages as its `paginate:`
    /// says, up to `limits`, handing each page to `handle` as it arrives, before the next is
    /// asked for: every page goes through `deliver`, with the login, retries, policy and log a
    /// call has. Stubbed, page N after the first is answered from the sample `pageN`. A next
    /// page that repeats one already asked for stops the walk, since it would never end.
    public func pages(
        _ service: ServiceSpec, _ target: TargetSpec, with options: CallOptions, headers: HTTPHeaders = [:],
        secrets: SecretSet = .none, limits: PageLimits = PageLimits(), delivery: Delivery = Delivery(),
        page handle: (DeliveredPage) async -> Void
    ) async -> PagesEnd {
        let name = service.name + "." + target.name
        var options = options
        var pageURL: URL?
        // A page on another origin (`--allow-cross-origin`) is asked for without credentials.
        var sendsCredentials = true
        func prepare() throws(ResolveError) -> PreparedCall {
            try PreparedCall.prepare(
                target, of: service, with: options, headers: headers, secrets: secrets, overrides: overrides,
                showingSecrets: showSecrets, printsRequest: !logOptions.isEmpty || tracesExchanges,
                keepsDownloadsInMemory: true, pageURL: pageURL, sendsCredentials: sendsCredentials)
        }
        func invalid(_ reason: String) -> PagesEnd {
            .invalid(SendFailure(kind: .invalidCall, target: name, reason: reason))
        }
        guard target.pagination != nil else {
            return invalid("the target has no paginate:, so it has no pages to follow")
        }
        var prepared: PreparedCall
        do throws(ResolveError) {
            prepared = try prepare()
        } catch {
            return invalid(error.message)
        }
        // Every next URL is held to the first page's origin, and resolved against the page's URL.
        let call = prepared.call
        guard let firstURL = URL(string: call.endpoint(for: call.target).url), let origin = Origin(firstURL),
            let reader = PageReader(target: target, origin: origin, allowsCrossOrigin: limits.allowsCrossOrigin)
        else { return invalid("pages are followed over http and https only") }
        // The first page is asked for too: a next that leads back to it ends the walk.
        var asked: Set<PageReader.NextRequest> = [.url(firstURL)]
        var number = 1
        var held = 0
        while true {
            let delivered = await deliver(prepared, of: service, delivery)
            guard case .success(let response) = delivered.result else {
                return .failed(page: number, prepared: prepared, delivered: delivered)
            }
            held += response.data.count
            if let most = limits.maxTotalBytes, held > most {
                let failure = PagingFailure(
                    "the pages come to more than \(ByteCount.format(most)), the most that is held in memory")
                return .stopped(failure.onPage(number), redactor: delivered.redactor)
            }
            let current = reader.pagination.param.flatMap { name in
                options.arguments[name] ?? target.params.first { $0.name == name }?.defaultValue
            }
            if number == 1, let name = reader.pagination.param, let current { asked.insert(.argument(name, current)) }
            let body: JSONValue
            let items: [JSONValue]
            do {
                body = try reader.body(of: response)
                items = try reader.items(in: body)
            } catch {
                return .stopped(error.onPage(number), redactor: delivered.redactor)
            }
            await handle(
                DeliveredPage(
                    number: number, prepared: prepared, response: response, items: items,
                    redactor: delivered.redactor))
            let next: PageReader.NextRequest
            do {
                guard
                    let found = try reader.next(
                        after: response, body: body, items: items, at: pageURL ?? firstURL, current: current)
                else { return .last(pages: number) }
                next = found
            } catch {
                return .stopped(error.onPage(number), redactor: delivered.redactor)
            }
            guard number < limits.maxPages else { return .limited(pages: number) }
            guard asked.insert(next).inserted else {
                let failure = PagingFailure("its next page repeats one already asked for, so the pages never end")
                return .stopped(failure.onPage(number), redactor: delivered.redactor)
            }
            number += 1
            switch next {
            case .url(let url):
                pageURL = url
                sendsCredentials = Origin(url) == origin
            case .argument(let name, let value): options.arguments[name] = value
            }
            if prepared.policy.stub != .never {
                let sample = PaginationSpec.sampleName(forPage: number)
                guard target.sample(named: sample) != nil else {
                    let failure = PagingFailure(
                        "a stub answers page \(number) from the sample '\(sample)', and the target has none; "
                            + "add it under samples:")
                    return .stopped(failure.onPage(number), redactor: delivered.redactor)
                }
                options.sample = sample
            }
            do throws(ResolveError) {
                prepared = try prepare()
            } catch {
                return invalid(error.message)
            }
        }
    }
}

extension SpecClient {
    /// Sends `target`'s first `pages` (`pages:` of a check or a flow step) and answers as one
    /// exchange whose body is every item of them, merged into one JSON array, with the last
    /// page's status and headers and the time all of them took. A page that fails validation
    /// is the exchange, as it came; pages that stop early, or `all` that reaches
    /// `PageCount.allLimit`, are a failure.
    func pagedExchange(
        _ service: ServiceSpec, _ target: TargetSpec, with options: CallOptions, pages: PageCount,
        headers: HTTPHeaders, secrets: SecretSet, delivery: Delivery
    ) async -> Exchange {
        let name = service.name + "." + target.name
        var maxPages = PageCount.allLimit
        if case .first(let count) = pages { maxPages = count }
        var items: [JSONValue] = []
        var last: DeliveredPage?
        let start = ContinuousClock.now
        let end = await self.pages(
            service, target, with: options, headers: headers, secrets: secrets,
            limits: PageLimits(maxPages: maxPages, maxTotalBytes: session.configuration.maximumBodyBytes),
            delivery: delivery
        ) { page in
            items += page.items
            last = page
        }
        let seconds = (ContinuousClock.now - start) / .seconds(1)
        // What `expect` and captures read: every item, with the last page's status and heads.
        func merged(_ last: DeliveredPage) -> Exchange {
            let response = last.response
            let body = Data(JSONValue.array(items).serialized(escapeSlashes: false).utf8)
            return Exchange(
                target: last.prepared.call.target, redactor: last.redactor,
                response: Response(
                    statusCode: response.statusCode, data: body, request: response.request,
                    response: response.response),
                seconds: seconds, failure: nil, passedValidation: true)
        }
        switch end {
        case .last:
            if let last { return merged(last) }
        case .limited where pages != .all:
            if let last { return merged(last) }
        case .limited(let count):
            let failure = SendFailure(
                kind: .invalidCall, target: name,
                reason:
                    "stopped after \(count) pages, and there are more; pages: all reads at most \(PageCount.allLimit)")
            return Exchange(
                target: last?.prepared.call.target, redactor: last?.redactor ?? Redactor(), response: nil,
                seconds: seconds, failure: failure)
        case .failed(_, let prepared, let delivered):
            return Exchange(
                target: prepared.call.target, redactor: delivered.redactor, result: delivered.result,
                seconds: seconds)
        case .stopped(let failure, let redactor):
            return Exchange(
                target: last?.prepared.call.target, redactor: redactor, response: nil, seconds: seconds,
                failure: SendFailure(kind: .invalidCall, target: name, reason: redactor.scrub(failure.description)))
        case .invalid(let failure):
            return Exchange(target: nil, redactor: Redactor(), response: nil, seconds: seconds, failure: failure)
        }
        let failure = SendFailure(kind: .invalidCall, target: name, reason: "no page came")
        return Exchange(target: nil, redactor: Redactor(), response: nil, seconds: seconds, failure: failure)
    }
}
