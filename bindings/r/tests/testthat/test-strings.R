# Strings: valid UTF-8 is kept; every other byte becomes U+0080..U+00FF of
# the same number (spec.md §11.3); NUL, which R cannot hold, becomes U+FFFD.
test_that("invalid UTF-8 and NUL in names", {
  skip_without_testdata()
  cases <- list(
    list(as.raw(c(0x66, 0xe9, 0x41)), "f\u00e9A"),
    list(charToRaw("caf\u00e9"), "caf\u00e9"),
    list(as.raw(c(0x6f, 0x76, 0xc0, 0xaf)), "ov\u00c0\u00af"),
    list(as.raw(c(0x73, 0x75, 0xed, 0xa0, 0x80)), "su\u00ed\u00a0\u0080"),
    list(as.raw(c(0x62, 0xf4, 0x90, 0x80, 0x80)), "b\u00f4\u0090\u0080\u0080"),
    list(as.raw(c(0x63, 0xe2, 0x82)), "c\u00e2\u0082"),
    list(as.raw(c(0xf0, 0x9f, 0x98, 0x80)), "\U0001F600"))
  src <- tempfile(fileext = ".collapsed")
  con <- file(src, "wb")
  for (i in seq_along(cases)) writeBin(c(charToRaw("main;"), cases[[i]][[1]], charToRaw(sprintf(" %d\n", i))), con)
  close(con)
  out <- tempfile(fileext = ".pcol")
  run_pcol("pack", src, "-o", out)
  names <- pcol_table(out, "functions")$name
  for (k in cases) expect_true(k[[2]] %in% names, info = k[[2]])
  expect_true(all(validUTF8(names[!is.na(names)])))
  t <- pcol_top(out)
  for (i in seq_along(cases)) expect_identical(t$self[t$name == cases[[i]][[2]]], as.numeric(i)) # a count: self/total
})

test_that("NUL bytes become U+FFFD", {
  skip_without_testdata()
  f <- file.path(TESTDATA, "pprof", "edge-invalid-utf8-nul-strings.pb.gz")
  skip_if_not(file.exists(f))
  s <- pcol_table(f, "strings")$value
  expect_true(any(grepl("\ufffd", s, fixed = TRUE)))
  expect_true(all(validUTF8(s)))
})
