module jsondecode

go 1.22
