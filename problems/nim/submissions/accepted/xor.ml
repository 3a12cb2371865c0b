let () =
  let n = Scanf.scanf " %d" (fun v -> v) in
  let x = ref 0 in
  for _ = 1 to n do
    x := !x lxor Scanf.scanf " %d" (fun v -> v)
  done;
  print_endline (if !x <> 0 then "Yes" else "No")
