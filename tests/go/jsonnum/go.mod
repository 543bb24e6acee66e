module jsonnum

go 1.22
