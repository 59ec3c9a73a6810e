#!/usr/bin/env bash
# Builds moya-fuzz with libFuzzer and AddressSanitizer and runs each target for $1 seconds
# (600 by default), with a corpus per target in .build-fuzz/corpus. A crash leaves its input
# as .build-fuzz/crash-*; add it to Tests/Fixtures/fuzz/TARGET/ so the tests replay it.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-600}
targets=${FUZZ_TARGETS:-spec json url jsonpath select regex flow serve serve-body openapi openapi-refs generate serve-wire record jwt mcp-wire arazzo}
swift build -c release --scratch-path .build-fuzz --product moya-fuzz \
  -Xswiftc -sanitize=fuzzer,address -Xswiftc -DFUZZING
binary=.build-fuzz/release/moya-fuzz
for target in $targets; do
  corpus=.build-fuzz/corpus/$target
  mkdir -p "$corpus"
  # Seed each corpus from what the project already has.
  case $target in
    spec) cp specs/*.yaml Tests/Fixtures/invalid/*.yaml "$corpus"/ 2>/dev/null || true ;;
    json) printf '{"a":[1,2.5e3,"x\\u00e9",true,null,{}]}' > "$corpus/seed.json" ;;
    url) printf 'ab+c/d= p@ss w0rd&x "q\\u/x' > "$corpus/seed.txt" ;;
    jsonpath)
      printf '$.a[0].b' > "$corpus/seed.txt"; printf "\$['d'].e[*]" > "$corpus/seed2.txt"
      printf "\$..[?@.b == 'c' || match(@, '[a-z]+')][1:3:-1]" > "$corpus/seed3.txt" ;;
    select)
      printf '$.headers[?search(@[1], "^Bearer s")]\n{"headers":[["a","b"]]}' > "$corpus/seed.txt"
      printf '$..*..*\n[[[[1]]]]' > "$corpus/seed2.txt" ;;
    serve-body)
      printf '\x00name=a&tags=x&tags=y&count=3&ok=true' > "$corpus/seed.txt"
      printf '\x01<r><name>a</name><tags>x</tags><inner a="1"/></r>' > "$corpus/seed2.txt"
      printf '\x02--b\r\nContent-Disposition: form-data; name="name"\r\n\r\na\r\n--b--\r\n' > "$corpus/seed3.txt" ;;
    openapi-refs) printf '\x01\x05\x09\x00\x02\x03' > "$corpus/seed.bin" ;;
    openapi) cp Tests/Fixtures/openapi/*.yaml Tests/Fixtures/openapi/*.json "$corpus"/ 2>/dev/null || true ;;
    serve)
      printf 'GET /api/v2/items?q=a+b&limit=5&tags%%5B%%5D=x\nPrefer: example=gone\n\n' > "$corpus/seed.txt"
      printf 'POST /api/v2/items\nContent-Type: application/json\n\n{"item":{"name":"a","price":1.5}}' > "$corpus/seed2.txt"
      printf 'POST /post\nContent-Type: application/x-www-form-urlencoded\n\nname=a&admin=1' > "$corpus/seed3.txt"
      printf 'GET /api/v2/me\nX-User: user=bob\n\n' > "$corpus/seed4.txt" ;;
    generate) cp specs/*.yaml Tests/Fixtures/generate/*.yaml "$corpus"/ 2>/dev/null || true ;;
    serve-wire)
      printf '\x05GET /api/v2/items HTTP/1.1\r\nHost: x\r\n\r\n' > "$corpus/seed.txt"
      printf '\x3fPOST /api/v2/login HTTP/1.1\r\nContent-Length: 100\r\n\r\nuser=a' > "$corpus/seed2.txt" ;;
    record)
      printf '\x00{"id":1,"token":"s3cr\\u00e4t-t0k\\/en","n":[1,2.5]}' > "$corpus/seed.json"
      printf '\x01line one\n\n\n' > "$corpus/seed.txt"
      printf '\x02\x00\x01\xff binary' > "$corpus/seed.bin" ;;
    jwt)
      printf 'eyJhbGciOiJFUzI1NiIsImtpZCI6ImsifQ.eyJpc3MiOiJodHRwczovL2F1dGgudGVzdCIsImV4cCI6OTk5OTk5OTk5OX0.c2ln' > "$corpus/seed.txt"
      printf 'eyJhbGciOiJub25lIn0.eyJzdWIiOiJ4In0.' > "$corpus/seed2.txt" ;;
    mcp-wire)
      printf '\x05POST /mcp HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 4194304\r\n\r\n{' > "$corpus/seed.txt"
      printf '\x3fPOST /mcp HTTP/1.1\r\nAuthorization: Bearer a.b.c\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n0\r\n\r\n' > "$corpus/seed2.txt" ;;
    arazzo) cp Tests/Fixtures/arazzo/*.arazzo.yaml "$corpus"/ 2>/dev/null || true ;;
    flow)
      printf "not exists {a.a.0} or ({x} == 'y' and {a.d.e.1} != 2)" > "$corpus/seed.txt"
      printf 'sid=1; Path=/a; Domain=example.com; Max-Age=60; Secure' > "$corpus/seed2.txt" ;;
  esac
  echo "== $target: $seconds s"
  # serve's router is compiled once, before the first input; LeakSanitizer counts what that
  # compile keeps (about 10 KB; 105 bytes for serve-body's) as a leak at exit, so leaks are
  # not checked for the serve targets.
  leaks=1
  [ "$target" = serve ] || [ "$target" = serve-wire ] || [ "$target" = serve-body ] && leaks=0
  # mcp --http, like serve, keeps its server (and the key set it read) for the whole run, and
  # jwt its verifier, made once before the first input: LeakSanitizer counts 98 bytes of that
  # key set at exit.
  [ "$target" = mcp-wire ] || [ "$target" = jwt ] && leaks=0
  # A recursive schema compiles to schema nodes that hold one another (MoyaSchema's registry),
  # freed only at exit; openapi-refs makes one with nearly every input (bench/RESULTS.md).
  [ "$target" = openapi-refs ] && leaks=0
  FUZZ_TARGET=$target "$binary" "$corpus" -max_total_time="$seconds" -max_len=65536 -detect_leaks=$leaks \
    -artifact_prefix=.build-fuzz/crash-$target- -print_final_stats=1 2>&1 | tail -25
done
