program Nim;
var
  n, i: longint;
  v, x: longint;
begin
  read(n);
  x := 0;
  for i := 1 to n do
  begin
    read(v);
    x := x xor v;
  end;
  if x <> 0 then writeln('Yes') else writeln('No');
end.
