module gotmplharness

go 1.27
