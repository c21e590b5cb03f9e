Rprof("memgc-snapshots.out", memory.profiling = TRUE, gc.profiling = TRUE, line.profiling = TRUE, interval = 0.005)
f <- function() { s <- 0; for (i in 1:3e6) s <- s + i; s }
g <- function() { l <- list(); for (i in 1:3000) l[[i]] <- rnorm(100); length(l) }
f(); g(); f(); Sys.sleep(0.05); g()
Rprof(NULL)
