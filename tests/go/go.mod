module pcol.test/mkprofiles

go 1.18
