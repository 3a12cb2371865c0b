import qualified Data.ByteString.Char8 as B
import Data.Bits (xor)
import Data.List (foldl')
import Data.Maybe (mapMaybe)

main :: IO ()
main = do
  words' <- B.words <$> B.getContents
  let numbers = map fst (mapMaybe B.readInt words')
      n = head numbers
      x = foldl' xor 0 (take n (tail numbers))
  putStrLn (if x /= 0 then "Yes" else "No")
