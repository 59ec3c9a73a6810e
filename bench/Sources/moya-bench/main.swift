// Sends N requests through Moya's API (the `Moya` module) or straight through MoyaCore, so
// that hyperfine can time the one against the other: what the Moya layer costs.
//
//   moya-bench moya-stub N | core-stub N        immediate stubs, one after another
//   moya-bench moya-live N URL | core-live N URL  live GETs of URL, one after another

#if canImport(Glibc)
    import Glibc
#endif

let arguments = CommandLine.arguments
guard arguments.count >= 3, let count = Int(arguments[2]), count > 0 else {
    fputs("usage: moya-bench moya-stub|core-stub N | moya-live|core-live N URL\n", stderr)
    exit(64)
}
let url = arguments.count > 3 ? arguments[3] : ""
let sent: Int
switch arguments[1] {
case "moya-stub": sent = MoyaSide.stubbed(count)
case "core-stub": sent = CoreSide.stubbed(count)
case "moya-live": sent = await MoyaSide.live(count, url: url)
case "core-live": sent = await CoreSide.live(count, url: url)
default:
    fputs("moya-bench: unknown mode \(arguments[1])\n", stderr)
    exit(64)
}
guard sent == count else {
    fputs("moya-bench: \(count - sent) of \(count) requests failed\n", stderr)
    exit(1)
}
