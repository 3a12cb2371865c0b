program Nim;
begin
  x := 1;
  writeln('Yes');
end.
