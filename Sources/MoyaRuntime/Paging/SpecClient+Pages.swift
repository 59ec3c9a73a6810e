import MoyaCore
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

        /// The default: 25 pages, Restish's, on the target's origin only.
        public static let defaultMaxPages = 25

        /// Limits of `maxPages` pages, on the target's origin unless `allowsCrossOrigin`.
        public init(maxPages: Int = PageLimits.defaultMaxPages, allowsCrossOrigin: Bool = false) {
            self.maxPages = maxPages
            self.allowsCrossOrigin = allowsCrossOrigin
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
        limits: PageLimits = PageLimits(), delivery: Delivery = Delivery(),
        page handle: (DeliveredPage) async -> Void
    ) async -> PagesEnd {
        var options = options
        var pageURL: URL?
        var reader: PageReader?
        var firstURL: URL?
        var asked: Set<PageReader.NextRequest> = []
        var number = 1
        while true {
            let prepared: PreparedCall
            do throws(ResolveError) {
                prepared = try PreparedCall.prepare(
                    target, of: service, with: options, headers: headers, overrides: overrides,
                    showingSecrets: showSecrets, printsRequest: !logOptions.isEmpty, keepsDownloadsInMemory: true,
                    pageURL: pageURL)
            } catch {
                return .invalid(
                    SendFailure(kind: .invalidCall, target: service.name + "." + target.name, reason: error.message))
            }
            let call = prepared.call
            if reader == nil {
                guard let url = URL(string: call.endpoint(for: call.target).url), let origin = Origin(url) else {
                    return .invalid(
                        SendFailure(
                            kind: .invalidCall, target: call.target.qualifiedName,
                            reason: "pages are followed over http and https only"))
                }
                firstURL = url
                reader = PageReader(target: target, origin: origin, allowsCrossOrigin: limits.allowsCrossOrigin)
            }
            guard let reader, let firstURL else {
                return .invalid(
                    SendFailure(
                        kind: .invalidCall, target: call.target.qualifiedName,
                        reason: "the target has no paginate:, so it has no pages to follow"))
            }
            let delivered = await deliver(prepared, of: service, delivery)
            guard case .success(let response) = delivered.result else {
                return .failed(page: number, prepared: prepared, delivered: delivered)
            }
            let current = reader.pagination.param.flatMap { name in
                options.arguments[name] ?? target.params.first { $0.name == name }?.defaultValue
            }
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
            case .url(let url): pageURL = url
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
        }
    }
}
