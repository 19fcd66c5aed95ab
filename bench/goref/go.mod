module passgate.bench/goref

go 1.19
