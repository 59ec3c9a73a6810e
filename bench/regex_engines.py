"""The second regex design, measured: PCRE2 (libpcre2-8, loaded with ctypes) with match_limit
and depth_limit, on what bench/regex.sh runs through MoyaRegex.

  python3 bench/regex_engines.py suite SUITE_DIR   the optional ECMA-262 regex tests (draft 2020-12)
  python3 bench/regex_engines.py pathological      ^(a|aa)+b and ^(a+)+$ on 30 a's and a '!'

PCRE2 is asked for ECMAScript-like behaviour where it has a switch: UTF, PCRE2_ALT_BSUX with
PCRE2_EXTRA_ALT_BSUX (\\u{...}, \\uXXXX, \\xHH), no PCRE2_UCP (so \\d and \\w stay ASCII, as
ECMA-262 has them), and $ that does not match before a final newline (PCRE2_DOLLAR_ENDONLY).
"""
import ctypes
import json
import os
import sys
import time

lib = ctypes.CDLL("libpcre2-8.so.0")
PCRE2_UTF = 0x00080000
PCRE2_ALT_BSUX = 0x00000002
PCRE2_DOLLAR_ENDONLY = 0x00000010
PCRE2_EXTRA_ALT_BSUX = 0x00000020
PCRE2_ERROR_MATCHLIMIT = -47
PCRE2_ERROR_NOMATCH = -1

lib.pcre2_compile_context_create_8.restype = ctypes.c_void_p
lib.pcre2_compile_context_create_8.argtypes = [ctypes.c_void_p]
lib.pcre2_set_compile_extra_options_8.argtypes = [ctypes.c_void_p, ctypes.c_uint32]
lib.pcre2_compile_8.restype = ctypes.c_void_p
lib.pcre2_compile_8.argtypes = [
    ctypes.c_char_p, ctypes.c_size_t, ctypes.c_uint32, ctypes.POINTER(ctypes.c_int),
    ctypes.POINTER(ctypes.c_size_t), ctypes.c_void_p]
lib.pcre2_match_data_create_from_pattern_8.restype = ctypes.c_void_p
lib.pcre2_match_data_create_from_pattern_8.argtypes = [ctypes.c_void_p, ctypes.c_void_p]
lib.pcre2_match_context_create_8.restype = ctypes.c_void_p
lib.pcre2_match_context_create_8.argtypes = [ctypes.c_void_p]
lib.pcre2_set_match_limit_8.argtypes = [ctypes.c_void_p, ctypes.c_uint32]
lib.pcre2_set_depth_limit_8.argtypes = [ctypes.c_void_p, ctypes.c_uint32]
lib.pcre2_match_8.restype = ctypes.c_int
lib.pcre2_match_8.argtypes = [
    ctypes.c_void_p, ctypes.c_char_p, ctypes.c_size_t, ctypes.c_size_t, ctypes.c_uint32, ctypes.c_void_p,
    ctypes.c_void_p]

compile_context = lib.pcre2_compile_context_create_8(None)
lib.pcre2_set_compile_extra_options_8(compile_context, PCRE2_EXTRA_ALT_BSUX)
match_context = lib.pcre2_match_context_create_8(None)
# MoyaRegex's budget for a 31-scalar text is 1,003,100 steps; PCRE2's match_limit counts its
# internal match() calls, its nearest equivalent.
lib.pcre2_set_match_limit_8(match_context, 1_000_000)
lib.pcre2_set_depth_limit_8(match_context, 100_000)


class Pattern:
    def __init__(self, source):
        error = ctypes.c_int()
        offset = ctypes.c_size_t()
        data = source.encode()
        self.code = lib.pcre2_compile_8(
            data, len(data), PCRE2_UTF | PCRE2_ALT_BSUX | PCRE2_DOLLAR_ENDONLY, ctypes.byref(error),
            ctypes.byref(offset), compile_context)
        if not self.code:
            raise ValueError(f"PCRE2 cannot compile {source!r} (error {error.value})")
        self.match_data = lib.pcre2_match_data_create_from_pattern_8(self.code, None)

    def search(self, text):
        data = text.encode()
        result = lib.pcre2_match_8(self.code, data, len(data), 0, 0, self.match_data, match_context)
        if result == PCRE2_ERROR_MATCHLIMIT:
            raise TimeoutError("match limit")
        if result < 0 and result != PCRE2_ERROR_NOMATCH:
            raise RuntimeError(f"pcre2_match: {result}")
        return result > 0


def valid(schema, data):
    """The four keywords the optional regex tests use."""
    if schema.get("type") == "object" and not isinstance(data, dict):
        return False
    if "pattern" in schema and isinstance(data, str) and not Pattern(schema["pattern"]).search(data):
        return False
    if isinstance(data, dict):
        patterns = schema.get("patternProperties", {})
        for key in data:
            matched = [p for p in patterns if Pattern(p).search(key)]
            if not matched and schema.get("additionalProperties") is False:
                return False
    return True


def suite(folder):
    passed = failed = 0
    for name in ["ecmascript-regex.json", "non-bmp-regex.json"]:
        for group in json.load(open(os.path.join(folder, "tests/draft2020-12/optional", name))):
            for test in group["tests"]:
                try:
                    ok = valid(group["schema"], test["data"]) == test["valid"]
                except (ValueError, TimeoutError):
                    ok = False
                if ok:
                    passed += 1
                else:
                    failed += 1
                    print(f"  PCRE2 fails: {group['description']} / {test['description']}")
    print(f"PCRE2: {passed} of {passed + failed} optional regex tests pass")


def pathological():
    text = "a" * 30 + "!"
    for source in ["^(a+)+$", "^(?=(a|aa)+b)", "^(a|aa)+b"]:
        pattern = Pattern(source)
        times = []
        outcome = None
        for _ in range(5):
            start = time.perf_counter()
            try:
                outcome = "matches" if pattern.search(text) else "no match"
            except TimeoutError:
                outcome = "match limit"
            times.append(time.perf_counter() - start)
        times.sort()
        print(f"PCRE2 /{source}/ on 30 a's and '!': {outcome}, median {times[2] * 1000:.2f} ms")


if __name__ == "__main__":
    if sys.argv[1] == "suite":
        suite(sys.argv[2])
    else:
        pathological()
