main :: IO ()
main = putStrLn (1 + "Yes")
